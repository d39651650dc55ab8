/** Domain errors with stable codes; plugins/errors.ts is the one place that maps them to HTTP. */
import type { ErrorCode } from '@upshot/contract';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class ValidationError extends AppError {
  constructor(message: string) {
    super('validation_error', 400, message);
  }
}
export class UnauthorizedError extends AppError {
  constructor(
    message = 'Authentication required',
    /** The WWW-Authenticate challenge to answer with, if any. */
    readonly challenge?: string,
  ) {
    super('unauthorized', 401, message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission to do this') {
    super('forbidden', 403, message);
  }
}
/** A temporary password was set: nothing but changing it (and signing out) is allowed. */
export class PasswordChangeRequiredError extends AppError {
  constructor() {
    super('password_change_required', 403, 'Choose a new password before continuing');
  }
}
/** An invitation that is unknown, used, expired, or for an inactive user (always the same). */
export class InvalidInviteError extends AppError {
  constructor() {
    super('invalid_invite', 400, 'This invitation is invalid or has expired');
  }
}
/** A part this instance needs (the database, the store) did not answer. */
export class NotReadyError extends AppError {
  constructor(message: string) {
    super('not_ready', 503, message);
  }
}
/** Something this server does not do (an oEmbed answer in XML). */
export class NotImplementedError extends AppError {
  constructor(message: string) {
    super('not_implemented', 501, message);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super('not_found', 404, message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super('conflict', 409, message);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super('payload_too_large', 413, message);
  }
}
/** The client stopped sending the request's body (plugins/body-timeout.ts). */
export class RequestTimeoutError extends AppError {
  constructor(message: string) {
    super('request_timeout', 408, message);
  }
}
export class RateLimitError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', 429, message);
  }
}

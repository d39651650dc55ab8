import { z } from 'zod';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  BIDI_CONTROLS,
  MIN_PASSWORD_LENGTH,
} from './constants.ts';
import { multilineText, NO_BIDI, text, WholeNumber } from './text.ts';
import { AdminUser, Email, Username } from './users.ts';

export const ACCESS_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const AccessRequestStatus = z.enum(ACCESS_REQUEST_STATUSES);

export const AccessRequest = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    reason: z.string(),
    status: AccessRequestStatus,
    createdAt: z.string(),
    decidedAt: z.string().nullable(),
  })
  .meta({ id: 'AccessRequest' });
export type AccessRequest = z.infer<typeof AccessRequest>;

/** The public Request Access form. */
export const CreateAccessRequest = z
  .object({
    email: Email,
    name: text(100)
      .refine((s) => !BIDI_CONTROLS.test(s), NO_BIDI)
      .trim()
      .min(1, { message: 'Name is required' }),
    reason: multilineText(2000).trim().min(1, { message: 'Reason is required' }),
  })
  .strict();
export type CreateAccessRequest = z.infer<typeof CreateAccessRequest>;

/** The same answer for every accepted request (it tells nothing about existing accounts). */
export const AccessRequestSubmitted = z.object({ message: z.string() });

export const ListAccessRequestsQuery = z.object({
  status: z.union([AccessRequestStatus, z.literal('')]).optional(),
  page: WholeNumber.pipe(z.number().int().min(1).max(1_000_000)).default(1),
  limit: WholeNumber.pipe(z.number().int().min(1).max(100)).default(50),
});
export type ListAccessRequestsQuery = z.input<typeof ListAccessRequestsQuery>;

export const ListAccessRequestsResponse = z.object({
  requests: z.array(AccessRequest),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type ListAccessRequestsResponse = z.infer<typeof ListAccessRequestsResponse>;

export const DecideAccessRequest = z.object({ status: z.enum(['approved', 'rejected']) }).strict();
export type DecideAccessRequest = z.infer<typeof DecideAccessRequest>;

export const DecideAccessRequestResponse = z.object({
  request: AccessRequest,
  /** The account an approval made (with an invitation); null for a rejection. */
  user: AdminUser.nullable(),
  /** The invitation link, to send by hand when the email did not go out. */
  inviteUrl: z.string().nullable(),
  emailSent: z.boolean(),
});
export type DecideAccessRequestResponse = z.infer<typeof DecideAccessRequestResponse>;

// --- Invitations and registration -------------------------------------------------------------

export const InviteCode = text(200).min(1);

export const InviteParams = z.object({ code: InviteCode });

/** What the registration page shows for an invitation. */
export const InviteInfo = z.object({
  email: z.string(),
  username: z.string(),
  expiresAt: z.string(),
});
export type InviteInfo = z.infer<typeof InviteInfo>;

export const RegisterRequest = z
  .object({
    inviteCode: InviteCode,
    password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, {
        message: `Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
      })
      .max(1024),
    /** Another username than the one the invitation was made with (if not taken). */
    username: Username.optional(),
  })
  .strict();
export type RegisterRequest = z.infer<typeof RegisterRequest>;

// --- Email -------------------------------------------------------------------------------------

export const SendInviteRequest = z
  .object({
    to: Email,
    username: Username,
    tempPassword: text(1024).min(1),
    inviteCode: InviteCode.optional(),
  })
  .strict();
export type SendInviteRequest = z.infer<typeof SendInviteRequest>;

export const SendInviteResponse = z.object({ emailSent: z.literal(true) });

// --- Audit log ---------------------------------------------------------------------------------

export const AuditEntry = z
  .object({
    id: z.string(),
    actorId: z.string().nullable(),
    actorUsername: z.string(),
    action: z.enum(AUDIT_ACTIONS),
    targetType: z.enum(AUDIT_TARGET_TYPES),
    targetId: z.string().nullable(),
    targetLabel: z.string(),
    details: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditLogQuery = z.object({
  /** An administrator's user id. */
  actor: text(100).optional(),
  action: z.union([z.enum(AUDIT_ACTIONS), z.literal('')]).optional(),
  page: WholeNumber.pipe(z.number().int().min(1).max(1_000_000)).default(1),
  limit: WholeNumber.pipe(z.number().int().min(1).max(100)).default(50),
});
export type AuditLogQuery = z.input<typeof AuditLogQuery>;

export const AuditLogResponse = z.object({
  entries: z.array(AuditEntry),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type AuditLogResponse = z.infer<typeof AuditLogResponse>;

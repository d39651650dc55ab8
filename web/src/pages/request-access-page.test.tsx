import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, refuse, reply, type Answers } from '../test/mock-api.ts';
import { renderApp } from '../test/render-app.tsx';

/** A visitor at `path`; the server takes the request unless `answers` say else. */
function visitor(answers: Answers = {}, path = '/request-access') {
  const network = mockApi({
    requestAccess: reply(201, { message: 'Your request has been submitted.' }),
    ...answers,
  });
  return { ...renderApp(path), ...network };
}

async function fillForm(user: ReturnType<typeof visitor>['user']) {
  await user.type(await screen.findByLabelText('Email'), 'rita@example.com');
  await user.type(screen.getByLabelText('Full name'), 'Rita Visitor');
  await user.type(screen.getByLabelText('Reason'), 'Screenshots for the docs team');
}

describe('Request Access', () => {
  it('asks for email, full name and reason, all required, with a link back to sign-in', async () => {
    visitor();
    expect(await screen.findByRole('heading', { name: 'Request Access' })).toBeInTheDocument();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toBeRequired();
    expect(screen.getByLabelText('Full name')).toBeRequired();
    const reason = screen.getByLabelText('Reason');
    expect(reason.tagName).toBe('TEXTAREA');
    expect(reason).toBeRequired();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it('sends nothing while a field is empty', async () => {
    const { user, sent } = visitor();
    await user.type(await screen.findByLabelText('Email'), 'rita@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(sent('requestAccess')).toHaveLength(0);
  });

  it("submits, toasts 'Access request submitted successfully!' and shows 'Request Submitted'", async () => {
    const { user, bodies } = visitor();
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));

    expect(await screen.findByText('Access request submitted successfully!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Request Submitted' })).toBeInTheDocument();
    expect(
      screen.getByText(/will be reviewed .* You will receive an email once it has been approved/),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
    expect(await bodies('requestAccess')).toEqual([
      { email: 'rita@example.com', name: 'Rita Visitor', reason: 'Screenshots for the docs team' },
    ]);
  });

  it("shows the server's message when it refuses (a pending request for the email)", async () => {
    const { user } = visitor({
      requestAccess: refuse(409, 'A request for this email is already pending'),
    });
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'A request for this email is already pending',
    );
    expect(screen.getAllByText('A request for this email is already pending')).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'Request Access' })).toBeInTheDocument();
    expect(screen.getByLabelText('Reason')).toHaveValue('Screenshots for the docs team');
  });

  it("says 'Failed to submit request' when the server gives no reason", async () => {
    const { user } = visitor({ requestAccess: new Response('Bad gateway', { status: 502 }) });
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to submit request');
  });

  it('shows the rate limit message', async () => {
    const { user } = visitor({
      requestAccess: refuse(429, 'Too many access requests. Try again in 59 minutes.'),
    });
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Too many access requests. Try again in 59 minutes.',
      ),
    );
  });

  it('is also the screen at /register without an invitation', async () => {
    visitor({}, '/register');
    expect(await screen.findByRole('heading', { name: 'Request Access' })).toBeInTheDocument();
    expect(screen.getByLabelText('Full name')).toBeInTheDocument();
  });
});

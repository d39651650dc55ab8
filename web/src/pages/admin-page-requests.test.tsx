import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../test/fetch-mock.ts';
import {
  fakeAdminServer,
  makeAccessRequest,
  renderWithAdminServer,
  serverError,
} from '../test/admin-server.ts';

function threeRequests() {
  return [
    makeAccessRequest({ id: 'r1', name: 'Rita Visitor', email: 'rita@example.com' }),
    makeAccessRequest({
      id: 'r2',
      name: 'Sam Approved',
      email: 'sam@example.com',
      status: 'approved',
    }),
    makeAccessRequest({
      id: 'r3',
      name: 'Tom Rejected',
      email: 'tom@example.com',
      status: 'rejected',
    }),
  ];
}

const requestsTable = () => screen.findByRole('table', { name: 'Access requests' });
const requestRow = async (name: string) =>
  (await within(await requestsTable()).findByText(name)).closest('tr')!;

describe('Admin page: Access Requests tab', () => {
  it('lists name, email, reason, date and a coloured status; approve and reject only when pending', async () => {
    const server = fakeAdminServer({ requests: threeRequests() });
    const { user, router } = renderWithAdminServer(server);
    await user.click(await screen.findByRole('tab', { name: 'Access Requests' }));
    expect(router.state.location.search).toBe('?tab=requests');

    const table = await requestsTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Email', 'Reason', 'Date', 'Status', 'Actions']);

    const rita = await requestRow('Rita Visitor');
    expect(within(rita).getByText('rita@example.com')).toBeInTheDocument();
    expect(within(rita).getByText('I make screenshots for the docs team.')).toBeInTheDocument();
    expect(within(rita).getByText('Mar 5, 2025, 2:07 PM')).toBeInTheDocument();
    expect(within(rita).getByText('Pending')).toHaveClass('text-amber-700');
    expect(within(rita).getByRole('button', { name: /^Approve/ })).toBeInTheDocument();
    expect(within(rita).getByRole('button', { name: /^Reject/ })).toBeInTheDocument();

    for (const [name, status, colour] of [
      ['Sam Approved', 'Approved', 'text-emerald-700'],
      ['Tom Rejected', 'Rejected', 'text-red-700'],
    ] as const) {
      const line = await requestRow(name);
      expect(within(line).getByText(status)).toHaveClass(colour);
      expect(within(line).queryByRole('button', { name: /^Approve/ })).not.toBeInTheDocument();
      expect(within(line).queryByRole('button', { name: /^Reject/ })).not.toBeInTheDocument();
      expect(within(line).getByRole('button', { name: /^Delete/ })).toBeInTheDocument();
    }
  });

  it('opens at ?tab=requests and filters by status', async () => {
    const { user, sent } = renderWithAdminServer(
      fakeAdminServer({ requests: threeRequests() }),
      '/admin?tab=requests',
    );
    await requestRow('Rita Visitor');
    await user.click(screen.getByRole('radio', { name: 'Pending' }));
    await waitFor(() => expect(screen.queryByText('Sam Approved')).not.toBeInTheDocument());
    expect(
      new URL(sent('GET', '/api/access-requests').at(-1)!.url).searchParams.get('status'),
    ).toBe('pending');
    await user.click(screen.getByRole('radio', { name: 'Rejected' }));
    expect(await screen.findByText('Tom Rejected')).toBeInTheDocument();
  });

  it("approves: 'Request approved - notification email sent' and the row turns green", async () => {
    const server = fakeAdminServer({ requests: threeRequests() });
    const { user, sent } = renderWithAdminServer(server, '/admin?tab=requests');
    await user.click(
      within(await requestRow('Rita Visitor')).getByRole('button', { name: /^Approve/ }),
    );
    expect(
      await screen.findByText('Request approved - notification email sent'),
    ).toBeInTheDocument();
    expect(await sent('PATCH', '/api/access-requests/r1')[0]!.json()).toEqual({
      status: 'approved',
    });
    await waitFor(async () =>
      expect(within(await requestRow('Rita Visitor')).getByText('Approved')).toBeInTheDocument(),
    );
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(server.mail.sent).toEqual([{ to: 'rita@example.com', kind: 'approved' }]);
  });

  it('approves without email: a warning, and the invitation link to hand over', async () => {
    const server = fakeAdminServer({ requests: threeRequests(), mail: false });
    const { user } = renderWithAdminServer(server, '/admin?tab=requests');
    await user.click(
      within(await requestRow('Rita Visitor')).getByRole('button', { name: /^Approve/ }),
    );
    expect(
      await screen.findByText('Request approved, but the notification email was not sent'),
    ).toBeInTheDocument();
    const alert = await screen.findByRole('alertdialog', { name: 'Send the invitation by hand' });
    expect(within(alert).getByLabelText('Email')).toHaveValue('rita@example.com');
    expect(within(alert).getByLabelText('Invitation link')).toHaveValue(
      'http://localhost/register?invite=invite-rita',
    );
    await user.click(within(alert).getByRole('button', { name: 'Copy invitation link' }));
    expect(await navigator.clipboard.readText()).toBe(
      'http://localhost/register?invite=invite-rita',
    );
  });

  it("rejects: 'Request rejected'", async () => {
    const { user, sent } = renderWithAdminServer(
      fakeAdminServer({ requests: threeRequests() }),
      '/admin?tab=requests',
    );
    await user.click(
      within(await requestRow('Rita Visitor')).getByRole('button', { name: /^Reject/ }),
    );
    expect(await screen.findByText('Request rejected')).toBeInTheDocument();
    expect(await sent('PATCH', '/api/access-requests/r1')[0]!.json()).toEqual({
      status: 'rejected',
    });
  });

  it('deletes any request after a confirmation', async () => {
    const { user, sent } = renderWithAdminServer(
      fakeAdminServer({ requests: threeRequests() }),
      '/admin?tab=requests',
    );
    await user.click(
      within(await requestRow('Sam Approved')).getByRole('button', { name: /^Delete/ }),
    );
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete request' });
    expect(confirm).toHaveTextContent(
      'Delete the request from "Sam Approved" (sam@example.com)? This cannot be undone.',
    );
    expect(sent('DELETE', '/api/access-requests/r2')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Request deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Sam Approved')).not.toBeInTheDocument());
  });

  it.each([
    ['decideAccessRequest', /^Approve/, 'Failed to approve request'],
    ['decideAccessRequest', /^Reject/, 'Failed to reject request'],
  ] as const)('says so when %s fails (%s)', async (endpoint, button, message) => {
    const server = fakeAdminServer({ requests: threeRequests() });
    server.fail[endpoint] = serverError;
    const { user } = renderWithAdminServer(server, '/admin?tab=requests');
    await user.click(
      within(await requestRow('Rita Visitor')).getByRole('button', { name: button }),
    );
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it("says 'Failed to delete request', and the server's reason for a decided request", async () => {
    const server = fakeAdminServer({ requests: threeRequests() });
    server.fail.deleteAccessRequest = serverError;
    server.fail.decideAccessRequest = () =>
      jsonResponse(409, { error: 'conflict', message: 'This request was approved already' });
    const { user } = renderWithAdminServer(server, '/admin?tab=requests');
    await user.click(
      within(await requestRow('Rita Visitor')).getByRole('button', { name: /^Delete/ }),
    );
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete request')).toBeInTheDocument();

    await user.click(
      within(await requestRow('Rita Visitor')).getByRole('button', { name: /^Approve/ }),
    );
    expect(await screen.findByText('Failed to approve request')).toBeInTheDocument();
    expect(screen.getByText('This request was approved already')).toBeInTheDocument();
  });

  it("says 'Failed to load access requests', and when there are none", async () => {
    const server = fakeAdminServer();
    server.fail.listAccessRequests = serverError;
    const { user } = renderWithAdminServer(server, '/admin?tab=requests');
    expect(await screen.findByText('Failed to load access requests')).toBeInTheDocument();
    delete server.fail.listAccessRequests;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No access requests yet')).toBeInTheDocument();
  });
});

describe('Admin page: Audit Log tab', () => {
  it('lists what administrators did: when, who, action, target and details', async () => {
    const server = fakeAdminServer({ requests: threeRequests() });
    const { user } = renderWithAdminServer(server);
    const bob = await screen.findByRole('row', { name: 'bob' });
    await user.click(within(bob).getByRole('button', { name: 'Actions for bob' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Deactivate' }));
    await screen.findByText('bob deactivated');

    await user.click(screen.getByRole('tab', { name: 'Audit Log' }));
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['When', 'Who', 'Action', 'Target', 'Details']);
    const line = within(table).getByText('Changed user').closest('tr')!;
    expect(within(line).getByText('ada')).toBeInTheDocument();
    expect(within(line).getByText('bob')).toBeInTheDocument();
    expect(within(line).getByText('Mar 6, 2025, 9:30 AM')).toBeInTheDocument();
    expect(within(line).getByText('Active: yes \u2192 no')).toBeInTheDocument();
  });

  it('pages through the log', async () => {
    const server = fakeAdminServer();
    for (let i = 0; i < 30; i++) {
      server.audit.push({
        id: `old${i}`,
        actorId: 'admin1',
        actorUsername: 'ada',
        action: 'user.password_reset',
        targetType: 'user',
        targetId: 'u2',
        targetLabel: `target-${i}`,
        details: {},
        createdAt: '2025-03-01T09:30:00.000Z',
      });
    }
    const { user } = renderWithAdminServer(server, '/admin?tab=audit');
    expect(await screen.findByText('target-0')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('target-29')).toBeInTheDocument();
    expect(screen.queryByText('target-0')).not.toBeInTheDocument();
  });

  it("says 'Failed to load audit log'", async () => {
    const server = fakeAdminServer();
    server.fail.auditLog = serverError;
    renderWithAdminServer(server, '/admin?tab=audit');
    expect(await screen.findByText('Failed to load audit log')).toBeInTheDocument();
  });
});

describe('Admin page: requests in flight and the last page', () => {
  it('holds the buttons of every request being decided, not only the latest', async () => {
    const server = fakeAdminServer({
      requests: [
        ...threeRequests(),
        makeAccessRequest({ id: 'r4', name: 'Uma Waiting', email: 'uma@example.com' }),
      ],
    });
    const decide = server.handlers['PATCH /api/access-requests/:id']!;
    const held: (() => void)[] = [];
    server.handlers['PATCH /api/access-requests/:id'] = async (request, params) => {
      await new Promise<void>((release) => held.push(release));
      return decide(request, params);
    };
    const { user } = renderWithAdminServer(server, '/admin?tab=requests');
    const rita = await requestRow('Rita Visitor');
    const uma = await requestRow('Uma Waiting');

    await user.click(within(rita).getByRole('button', { name: /^Approve/ }));
    await user.click(within(uma).getByRole('button', { name: /^Reject/ }));
    await waitFor(() => expect(held).toHaveLength(2));
    for (const line of [rita, uma]) {
      for (const name of [/^Approve/, /^Reject/, /^Delete/]) {
        expect(within(line).getByRole('button', { name })).toBeDisabled();
      }
    }

    held.forEach((release) => release());
    expect(await screen.findByText('Request rejected')).toBeInTheDocument();
    await waitFor(async () =>
      expect(
        within(await requestRow('Uma Waiting')).getByRole('button', { name: /^Delete/ }),
      ).toBeEnabled(),
    );
  });

  it('steps back to the new last page when its last request is deleted', async () => {
    const requests = Array.from({ length: 21 }, (_, i) =>
      makeAccessRequest({ id: `r${i}`, name: `Visitor ${i}`, email: `v${i}@example.com` }),
    );
    const { user } = renderWithAdminServer(fakeAdminServer({ requests }), '/admin?tab=requests');
    await requestRow('Visitor 0');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    const last = await requestRow('Visitor 20');
    await user.click(within(last).getByRole('button', { name: /^Delete/ }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await screen.findByText('Request deleted');

    expect(await requestRow('Visitor 0')).toBeInTheDocument();
    expect(screen.queryByText('No access requests yet')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });
});

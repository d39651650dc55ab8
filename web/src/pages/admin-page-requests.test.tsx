import type { AccessRequest, DecideAccessRequestResponse } from '@upshot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAdmin } from '../test/admin.ts';
import { makeAccessRequest, makeAdminUser, makeAuditEntry } from '../test/fixtures.ts';
import {
  noContent,
  refuse,
  serverError,
  type Answer,
  type Answers,
  type Call,
} from '../test/mock-api.ts';

const rita = makeAccessRequest({ id: 'r1', name: 'Rita Visitor', email: 'rita@example.com' });
const sam = makeAccessRequest({
  id: 'r2',
  name: 'Sam Approved',
  email: 'sam@example.com',
  status: 'approved',
});
const tom = makeAccessRequest({
  id: 'r3',
  name: 'Tom Rejected',
  email: 'tom@example.com',
  status: 'rejected',
});

/** The list's answer for the page asked for, of `requests`. */
function listOf(requests: AccessRequest[], { query }: Call<'listAccessRequests'>) {
  const page = Number(query.get('page') ?? 1);
  const limit = Number(query.get('limit') ?? 20);
  return {
    requests: requests.slice((page - 1) * limit, page * limit),
    total: requests.length,
    page,
    limit,
  };
}

/** What deciding a request answers: the request decided, and for an approval its new user. */
function decided(
  request: AccessRequest,
  status: 'approved' | 'rejected',
  emailSent = true,
): DecideAccessRequestResponse {
  const approved = status === 'approved';
  return {
    request: { ...request, status, decidedAt: '2025-03-06T09:30:00.000Z' },
    user: approved ? makeAdminUser({ id: 'new1', username: 'rita', email: request.email }) : null,
    inviteUrl: approved ? 'http://localhost/register?invite=invite-rita' : null,
    emailSent,
  };
}

/** The list as it stands after the decisions and deletes the test has sent. */
function changingRequests(initial = [rita, sam, tom], emailSent = true) {
  let requests = initial;
  return {
    listAccessRequests: (call) => listOf(requests, call),
    decideAccessRequest: ({ params, body }) => {
      const answer = decided(
        requests.find((r) => r.id === params.id)!,
        body.status,
        emailSent,
      );
      requests = requests.map((r) => (r.id === params.id ? answer.request : r));
      return answer;
    },
    deleteAccessRequest: ({ params }) => {
      requests = requests.filter((r) => r.id !== params.id);
      return noContent();
    },
  } satisfies Answers;
}

const path = (request: Request) => new URL(request.url).pathname;
const requestsTable = () => screen.findByRole('table', { name: 'Access requests' });
const requestRow = async (name: string) =>
  (await within(await requestsTable()).findByText(name)).closest('tr')!;

describe('Admin page: Access Requests tab', () => {
  it('lists name, email, reason, date and a coloured status; approve and reject only when pending', async () => {
    const { user, router } = renderAdmin(changingRequests());
    await user.click(await screen.findByRole('tab', { name: 'Access Requests' }));
    expect(router.state.location.search).toBe('?tab=requests');

    const table = await requestsTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Email', 'Reason', 'Date', 'Status', 'Actions']);

    const ritaRow = await requestRow('Rita Visitor');
    expect(within(ritaRow).getByText('rita@example.com')).toBeInTheDocument();
    expect(within(ritaRow).getByText('I make screenshots for the docs team.')).toBeInTheDocument();
    expect(within(ritaRow).getByText('Mar 5, 2025, 2:07 PM')).toBeInTheDocument();
    expect(within(ritaRow).getByText('Pending')).toHaveClass('text-amber-700');
    expect(within(ritaRow).getByRole('button', { name: /^Approve/ })).toBeInTheDocument();
    expect(within(ritaRow).getByRole('button', { name: /^Reject/ })).toBeInTheDocument();

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
    const { user, queries } = renderAdmin(
      {
        listAccessRequests: (call) => {
          const status = call.query.get('status');
          return listOf(
            [rita, sam, tom].filter((r) => !status || r.status === status),
            call,
          );
        },
      },
      '/admin?tab=requests',
    );
    await requestRow('Rita Visitor');
    await user.click(screen.getByRole('radio', { name: 'Pending' }));
    await waitFor(() => expect(screen.queryByText('Sam Approved')).not.toBeInTheDocument());
    expect(queries('listAccessRequests').at(-1)?.status).toBe('pending');
    await user.click(screen.getByRole('radio', { name: 'Rejected' }));
    expect(await screen.findByText('Tom Rejected')).toBeInTheDocument();
    expect(queries('listAccessRequests').at(-1)?.status).toBe('rejected');
  });

  it("approves: 'Request approved - notification email sent' and the row turns green", async () => {
    const { user, sent, bodies } = renderAdmin(changingRequests(), '/admin?tab=requests');
    await user.click(
      within(await requestRow('Rita Visitor')).getByRole('button', { name: /^Approve/ }),
    );
    expect(
      await screen.findByText('Request approved - notification email sent'),
    ).toBeInTheDocument();
    expect(sent('decideAccessRequest').map(path)).toEqual(['/api/access-requests/r1']);
    expect(await bodies('decideAccessRequest')).toEqual([{ status: 'approved' }]);
    await waitFor(async () =>
      expect(within(await requestRow('Rita Visitor')).getByText('Approved')).toBeInTheDocument(),
    );
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('approves without email: a warning, and the invitation link to hand over', async () => {
    const { user } = renderAdmin(changingRequests([rita], false), '/admin?tab=requests');
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
    const { user, bodies } = renderAdmin(changingRequests(), '/admin?tab=requests');
    await user.click(
      within(await requestRow('Rita Visitor')).getByRole('button', { name: /^Reject/ }),
    );
    expect(await screen.findByText('Request rejected')).toBeInTheDocument();
    expect(await bodies('decideAccessRequest')).toEqual([{ status: 'rejected' }]);
    await waitFor(async () =>
      expect(within(await requestRow('Rita Visitor')).getByText('Rejected')).toBeInTheDocument(),
    );
  });

  it('deletes any request after a confirmation', async () => {
    const { user, sent } = renderAdmin(changingRequests(), '/admin?tab=requests');
    await user.click(
      within(await requestRow('Sam Approved')).getByRole('button', { name: /^Delete/ }),
    );
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete request' });
    expect(confirm).toHaveTextContent(
      'Delete the request from "Sam Approved" (sam@example.com)? This cannot be undone.',
    );
    expect(sent('deleteAccessRequest')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Request deleted')).toBeInTheDocument();
    expect(sent('deleteAccessRequest').map(path)).toEqual(['/api/access-requests/r2']);
    await waitFor(() => expect(screen.queryByText('Sam Approved')).not.toBeInTheDocument());
  });

  it.each([
    [/^Approve/, 'Failed to approve request'],
    [/^Reject/, 'Failed to reject request'],
  ] as const)('says so when deciding fails (%s)', async (button, message) => {
    const { user } = renderAdmin(
      { ...changingRequests(), decideAccessRequest: serverError() },
      '/admin?tab=requests',
    );
    await user.click(
      within(await requestRow('Rita Visitor')).getByRole('button', { name: button }),
    );
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it("says 'Failed to delete request', and the server's reason for a decided request", async () => {
    const { user } = renderAdmin(
      {
        ...changingRequests(),
        deleteAccessRequest: serverError(),
        decideAccessRequest: refuse(409, 'This request was approved already'),
      },
      '/admin?tab=requests',
    );
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
    let answer: Answer<'listAccessRequests'> = serverError();
    const { user } = renderAdmin({ listAccessRequests: () => answer }, '/admin?tab=requests');
    expect(await screen.findByText('Failed to load access requests')).toBeInTheDocument();
    expect(screen.getByText('The access requests could not be loaded.')).toBeInTheDocument();

    answer = { requests: [], total: 0, page: 1, limit: 20 };
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No access requests yet')).toBeInTheDocument();
  });
});

describe('Admin page: Audit Log tab', () => {
  it('lists what administrators did: when, who, action, target and details', async () => {
    const { user } = renderAdmin({
      auditLog: {
        entries: [
          makeAuditEntry({
            action: 'user.updated',
            actorUsername: 'ada',
            targetLabel: 'bob',
            details: { isActive: { from: true, to: false } },
            createdAt: '2025-03-06T09:30:00.000Z',
          }),
        ],
        total: 1,
        page: 1,
        limit: 20,
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Audit Log' }));
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
    const entries = Array.from({ length: 30 }, (_, i) =>
      makeAuditEntry({ id: `old${i}`, action: 'user.password_reset', targetLabel: `target-${i}` }),
    );
    const { user, queries } = renderAdmin(
      {
        auditLog: ({ query }) => {
          const page = Number(query.get('page'));
          const limit = Number(query.get('limit'));
          return {
            entries: entries.slice((page - 1) * limit, page * limit),
            total: 30,
            page,
            limit,
          };
        },
      },
      '/admin?tab=audit',
    );
    expect(await screen.findByText('target-0')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('target-29')).toBeInTheDocument();
    expect(screen.queryByText('target-0')).not.toBeInTheDocument();
    expect(queries('auditLog').at(-1)?.page).toBe('2');
  });

  it("says 'Failed to load audit log'", async () => {
    renderAdmin({ auditLog: serverError() }, '/admin?tab=audit');
    expect(await screen.findByText('Failed to load audit log')).toBeInTheDocument();
    expect(screen.getByText('The audit log could not be loaded.')).toBeInTheDocument();
  });
});

describe('Admin page: requests in flight and the last page', () => {
  it('holds the buttons of every request being decided, not only the latest', async () => {
    const uma = makeAccessRequest({ id: 'r4', name: 'Uma Waiting', email: 'uma@example.com' });
    const requests = changingRequests([rita, sam, tom, uma]);
    const held: (() => void)[] = [];
    const { user } = renderAdmin(
      {
        ...requests,
        decideAccessRequest: async (call) => {
          await new Promise<void>((release) => held.push(release));
          return requests.decideAccessRequest(call);
        },
      },
      '/admin?tab=requests',
    );
    const ritaRow = await requestRow('Rita Visitor');
    const umaRow = await requestRow('Uma Waiting');

    await user.click(within(ritaRow).getByRole('button', { name: /^Approve/ }));
    await user.click(within(umaRow).getByRole('button', { name: /^Reject/ }));
    await waitFor(() => expect(held).toHaveLength(2));
    for (const line of [ritaRow, umaRow]) {
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
    const { user } = renderAdmin(changingRequests(requests), '/admin?tab=requests');
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

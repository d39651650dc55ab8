import type { AdminStats, DayCount, UserStats } from '@upshot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { formatDate } from '../lib/format.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { deferred } from '../test/fetch-mock.ts';
import { makeUser } from '../test/fixtures.ts';
import { mockApi, serverError, signIn, type Answers, type Handler } from '../test/mock-api.ts';
import { renderApp } from '../test/render-app.tsx';

/** Thirty days ending 2025-11-03, with `counts` placed on the last days (oldest first). */
function days(counts: Array<[count: number, bytes: number]> = []): DayCount[] {
  return Array.from({ length: 30 }, (_, index) => {
    const date = new Date(Date.UTC(2025, 10, 3 - 29 + index)).toISOString().slice(0, 10);
    const [count, bytes] = counts[index - (30 - counts.length)] ?? [0, 0];
    return { date, count, bytes };
  });
}

function userStats(overrides: Partial<UserStats> = {}): UserStats {
  return {
    totalUploads: 0,
    totalViews: 0,
    totalSize: 0,
    mostViewed: [],
    fileTypeBreakdown: [],
    uploadsPerDay: days(),
    ...overrides,
  };
}

function adminStats(overrides: Partial<AdminStats> = {}): AdminStats {
  return {
    totalUsers: 1,
    totalUploads: 0,
    totalViews: 0,
    totalStorage: 0,
    mostActiveUsers: [],
    recentActivity: [],
    uploadsPerDay: days(),
    ...overrides,
  };
}

const busyUser = () =>
  userStats({
    totalUploads: 12,
    totalViews: 1234,
    totalSize: 3 * 1024 ** 2,
    mostViewed: [
      {
        id: 'a',
        filename: 'holiday.png',
        views: 900,
        shortCode: 'abc234',
        url: 'https://share.example.com/holiday',
        isPublic: true,
        maxViews: null,
        hasPassword: false,
      },
      {
        id: 'b',
        filename: 'secret.pdf',
        views: 300,
        shortCode: 'def567',
        url: 'https://share.example.com/def567',
        isPublic: false,
        maxViews: null,
        hasPassword: false,
      },
      {
        id: 'c',
        filename: 'once.mp4',
        views: 2,
        shortCode: 'ghj789',
        url: 'https://share.example.com/ghj789',
        isPublic: true,
        maxViews: 5,
        hasPassword: false,
      },
      {
        id: 'd',
        filename: 'locked.zip',
        views: 1,
        shortCode: 'kmn234',
        url: 'https://share.example.com/kmn234',
        isPublic: true,
        maxViews: null,
        hasPassword: true,
      },
    ],
    fileTypeBreakdown: [
      { type: 'documents', count: 4 },
      { type: 'images', count: 7 },
      { type: 'other', count: 1 },
    ],
    uploadsPerDay: days([
      [2, 2048],
      [0, 0],
      [4, 1.2 * 1024 ** 2],
    ]),
  });

/** The signed-in app on /dashboard; the stats answered as given. */
function renderDashboard({
  role = 'user',
  stats = busyUser(),
  admin = adminStats(),
  more = {},
}: {
  role?: 'user' | 'admin';
  stats?: Handler<'stats'>;
  admin?: Handler<'adminStats'>;
  more?: Answers;
} = {}) {
  const network = mockApi({
    ...signIn(makeUser({ role, username: 'alice' })),
    stats,
    adminStats: admin,
    ...more,
  });
  const calls = (name: 'stats' | 'adminStats') => network.sent(name).length;
  return { ...renderApp('/dashboard'), ...network, calls };
}

/** A card's number: the definition that follows its label. */
function stat(label: string): HTMLElement {
  const term = screen.getByText(label, { selector: 'dt > span' }).closest('dt');
  return term!.nextElementSibling as HTMLElement;
}
async function findStat(label: string): Promise<HTMLElement> {
  await screen.findByText(label, { selector: 'dt > span' });
  return stat(label);
}
const section = (name: string) => screen.queryByRole('region', { name });

describe('Dashboard: the user part', () => {
  it('welcomes the user and shows their numbers, Images counted from the breakdown', async () => {
    const answer = deferred<UserStats>();
    renderDashboard({ stats: () => answer.promise });
    expect(await screen.findByText('Welcome back, alice')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');

    answer.resolve(busyUser());
    expect((await findStat('Total Uploads')).textContent).toBe('12');
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
    expect(screen.getByText('3 MB stored')).toBeInTheDocument(); // their total size, under the count
    expect(stat('Total Views').textContent).toBe('1,234');
    expect(stat('Images').textContent).toBe('7');
  });

  it("counts 0 Images when the breakdown has no 'images'", async () => {
    renderDashboard({
      stats: userStats({ totalUploads: 2, fileTypeBreakdown: [{ type: 'documents', count: 2 }] }),
    });
    expect((await findStat('Images')).textContent).toBe('0');
    expect(stat('Total Uploads').textContent).toBe('2');
  });

  it('lists the most viewed uploads in order, each name opening its file', async () => {
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { user, sent } = renderDashboard({
      more: {
        uploadAccessUrl: {
          url: 'https://share.example.com/def567?expires=1&signature=abc',
          previewUrl: 'https://share.example.com/v/def567?expires=1&signature=abc',
          thumbnailUrl: null,
          expiresAt: '2030-01-01T00:00:00.000Z',
        },
      },
    });
    const table = await screen.findByRole('region', { name: 'Most Viewed Uploads' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['holiday.png', '900'],
      ['secret.pdf', '300'],
      ['once.mp4', '2'],
      ['locked.zip', '1'],
    ]);
    const link = within(table).getByRole('link', { name: 'holiday.png' });
    expect(link).toHaveAttribute('href', 'https://share.example.com/holiday');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');

    // A private file has no public link: a click asks for a signed one and opens that.
    expect(within(table).queryByRole('link', { name: 'secret.pdf' })).toBeNull();
    await user.click(within(table).getByRole('button', { name: 'secret.pdf' }));
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    await waitFor(() =>
      expect(tab.location.href).toBe('https://share.example.com/def567?expires=1&signature=abc'),
    );
    expect(new URL(sent('uploadAccessUrl')[0]!.url).pathname).toBe('/api/uploads/b/access-url');

    // So does a public one with a view limit or a password: the owner's look spends no view
    // and meets no password form.
    for (const [name, id] of [
      ['once.mp4', 'c'],
      ['locked.zip', 'd'],
    ]) {
      expect(within(table).queryByRole('link', { name })).toBeNull();
      await user.click(within(table).getByRole('button', { name }));
      await waitFor(() =>
        expect(sent('uploadAccessUrl').map((r) => new URL(r.url).pathname)).toContain(
          `/api/uploads/${id}/access-url`,
        ),
      );
    }
  });

  it('shows each file type with its label, count and a whole-number percentage bar', async () => {
    renderDashboard();
    const breakdown = await screen.findByRole('region', { name: 'File Type Breakdown' });
    const items = within(breakdown).getAllByRole('listitem');
    // 7/12 = 58.3%, 4/12 = 33.3%, 1/12 = 8.3%: largest first, rounded to whole numbers.
    expect(items.map((item) => item.textContent)).toEqual([
      'Images758%',
      'Documents433%',
      'Other18%',
    ]);
    const bar = within(breakdown).getByRole('progressbar', { name: 'Images' });
    expect(bar).toHaveAttribute('aria-valuenow', '58');
    expect(within(breakdown).getByRole('progressbar', { name: 'Other' })).toHaveAttribute(
      'aria-valuenow',
      '8',
    );
  });

  it('hides both tables when there is nothing to put in them', async () => {
    renderDashboard({ stats: userStats() });
    expect((await findStat('Total Uploads')).textContent).toBe('0');
    expect(stat('Total Views').textContent).toBe('0');
    expect(stat('Images').textContent).toBe('0');
    expect(screen.queryByText('Most Viewed Uploads')).not.toBeInTheDocument();
    expect(screen.queryByText('File Type Breakdown')).not.toBeInTheDocument();
    expect(screen.getByText('Nothing uploaded yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Uploads' })).toHaveAttribute('href', '/uploads');
  });

  it('shows the breakdown without the views table when nothing was viewed yet', async () => {
    renderDashboard({
      stats: userStats({ totalUploads: 1, fileTypeBreakdown: [{ type: 'images', count: 1 }] }),
    });
    expect(await screen.findByRole('region', { name: 'File Type Breakdown' })).toHaveTextContent(
      '100%',
    );
    expect(section('Most Viewed Uploads')).toBeNull();
    expect(screen.queryByText('Nothing uploaded yet')).not.toBeInTheDocument();
  });

  it('charts their own uploads per day, summarised for screen readers, a tooltip per bar', async () => {
    renderDashboard();
    const chart = await screen.findByRole('img', { name: /^Uploads per day/ });
    expect(chart).toHaveAccessibleName(
      'Uploads per day over the last 30 days: 6 uploads (1.2 MB) in total; busiest day Nov 3 with 4 uploads.',
    );
    const titles = [...chart.querySelectorAll('title')].map((title) => title.textContent);
    expect(titles).toHaveLength(30);
    expect(titles.slice(-3)).toEqual([
      'Nov 1: 2 uploads, 2 KB',
      'Nov 2: 0 uploads',
      'Nov 3: 4 uploads, 1.2 MB',
    ]);
    expect(titles[0]).toBe('Oct 5: 0 uploads');
    expect(screen.getByText('Your uploads, last 30 days: 6 uploads')).toBeInTheDocument();
  });

  it('asks for fresh numbers on every visit', async () => {
    const { router, calls, queryClient } = renderDashboard();
    // The app's own defaults keep data fresh for a while; the stats must not take that.
    const appDefaults = createQueryClient().getDefaultOptions().queries;
    queryClient.setDefaultOptions({ queries: { ...appDefaults, retry: false } });
    await screen.findByRole('region', { name: 'Most Viewed Uploads' });
    expect(calls('stats')).toBe(1);
    await router.navigate('/settings');
    await screen.findByRole('heading', { name: 'Settings' });
    await router.navigate('/dashboard');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await waitFor(() => expect(calls('stats')).toBe(2));
  });
});

describe('Dashboard: the admin part', () => {
  it('is not there for a user, whose dashboard never asks for the admin stats', async () => {
    const { calls } = renderDashboard();
    await screen.findByRole('region', { name: 'Most Viewed Uploads' });
    for (const label of ['Total Users', 'System Uploads', 'System Views', 'Storage Used']) {
      expect(screen.queryByText(label)).not.toBeInTheDocument();
    }
    expect(section('Most Active Users')).toBeNull();
    expect(section('Recent Activity')).toBeNull();
    expect(calls('adminStats')).toBe(0);
  });

  it("shows an admin the instance's cards and tables, and the instance's chart", async () => {
    const createdAt = '2025-11-03T09:30:00.000Z';
    renderDashboard({
      role: 'admin',
      admin: adminStats({
        totalUsers: 3,
        totalUploads: 1500,
        totalViews: 98765,
        totalStorage: 1.5 * 1024 ** 3,
        mostActiveUsers: [
          { userId: 'u2', username: 'bob', uploadCount: 40 },
          { userId: 'u1', username: 'alice', uploadCount: 12 },
        ],
        recentActivity: [{ id: 'r1', filename: 'report.pdf', username: 'bob', createdAt }],
        uploadsPerDay: days([[9, 9 * 1024]]),
      }),
    });
    expect((await findStat('Total Users')).textContent).toBe('3');
    expect(stat('System Uploads').textContent).toBe('1,500');
    expect(stat('System Views').textContent).toBe('98,765');
    expect(stat('Storage Used').textContent).toBe('1.5 GB');
    // Their own cards stay theirs.
    expect(stat('Total Uploads').textContent).toBe('12');

    const active = screen.getByRole('region', { name: 'Most Active Users' });
    expect(
      within(active)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['UsernameUploads', 'bob40', 'alice12']);

    const recent = screen.getByRole('region', { name: 'Recent Activity' });
    const [header, row] = within(recent).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['File', 'User', 'Time']);
    expect(within(row!).getByText('report.pdf')).toBeInTheDocument();
    expect(within(row!).getAllByText('bob').length).toBeGreaterThan(0);
    expect(within(row!).getAllByText(formatDate(createdAt)).length).toBeGreaterThan(0);
    expect(formatDate(createdAt)).toMatch(/^Nov 3, 2025, \d{1,2}:30 [AP]M$/);

    // One chart, the instance's.
    const charts = screen.getAllByRole('img', { name: /^Uploads per day/ });
    expect(charts).toHaveLength(1);
    expect(charts[0]).toHaveAccessibleName(
      'Uploads per day over the last 30 days: 9 uploads (9 KB) in total; busiest day Nov 3 with 9 uploads.',
    );
    expect(screen.getByText('All users, last 30 days: 9 uploads')).toBeInTheDocument();
  });

  it('says so in the admin tables when nobody has uploaded yet', async () => {
    renderDashboard({ role: 'admin' });
    expect(await screen.findByRole('region', { name: 'Most Active Users' })).toHaveTextContent(
      'No uploads yet',
    );
    expect(section('Recent Activity')).toHaveTextContent('No uploads yet');
  });
});

describe('Dashboard: failures', () => {
  it("says 'Failed to load statistics' and offers to try again", async () => {
    let fail = true;
    const { user } = renderDashboard({
      stats: () => (fail ? serverError() : busyUser()),
    });
    expect(await screen.findByText('Failed to load statistics')).toBeInTheDocument();
    expect(screen.getByText('Statistics could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('Welcome back, alice')).toBeInTheDocument();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await findStat('Total Uploads')).textContent).toBe('12');
  });

  it('keeps the user part when only the admin stats fail, with one toast', async () => {
    renderDashboard({
      role: 'admin',
      admin: serverError(),
    });
    expect(await screen.findByText('Failed to load statistics')).toBeInTheDocument();
    expect((await findStat('Total Uploads')).textContent).toBe('12');
    expect(screen.getByRole('region', { name: 'System' })).toHaveTextContent(
      'Statistics could not be loaded.',
    );
  });

  it('shows one toast when both fail', async () => {
    renderDashboard({ role: 'admin', stats: serverError(), admin: serverError() });
    await waitFor(() =>
      expect(screen.getAllByText('Statistics could not be loaded.')).toHaveLength(2),
    );
    expect(screen.getAllByText('Failed to load statistics')).toHaveLength(1);
  });
});

import { ClipboardList, ScrollText, Users } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../components/page-header.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/tabs.tsx';
import { AccessRequestsTab } from '../features/access-requests/index.ts';
import { AuditLogTab, UsersTab } from '../features/admin/index.ts';

const TABS = ['users', 'requests', 'audit'] as const;
type Tab = (typeof TABS)[number];

function isTab(value: string | null): value is Tab {
  return (TABS as readonly (string | null)[]).includes(value);
}

/** The open tab is in the address (?tab=), so a reload or a shared link opens it again. */
export function AdminPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab: Tab = isTab(requested) ? requested : 'users';

  return (
    <>
      <PageHeader title="Admin" description="Users, access requests and the audit log" />
      <Tabs
        value={tab}
        onValueChange={(next) =>
          setSearchParams(next === 'users' ? {} : { tab: next }, { replace: true })
        }
      >
        <TabsList>
          <TabsTrigger value="users">
            <Users aria-hidden="true" />
            Users
          </TabsTrigger>
          <TabsTrigger value="requests">
            <ClipboardList aria-hidden="true" />
            Access Requests
          </TabsTrigger>
          <TabsTrigger value="audit">
            <ScrollText aria-hidden="true" />
            Audit Log
          </TabsTrigger>
        </TabsList>
        <TabsContent value="users">
          <UsersTab />
        </TabsContent>
        <TabsContent value="requests">
          <AccessRequestsTab />
        </TabsContent>
        <TabsContent value="audit">
          <AuditLogTab />
        </TabsContent>
      </Tabs>
    </>
  );
}

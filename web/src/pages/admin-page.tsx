import { ComingSoon, PageHeader } from '../components/page-header.tsx';

export function AdminPage() {
  return (
    <>
      <PageHeader title="Admin" />
      <ComingSoon />
    </>
  );
}

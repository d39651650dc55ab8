import { ComingSoon, PageHeader } from '../components/page-header.tsx';

export function ProfilePage() {
  return (
    <>
      <PageHeader title="Profile" />
      <ComingSoon />
    </>
  );
}

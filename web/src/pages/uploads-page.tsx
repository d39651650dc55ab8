import { ComingSoon, PageHeader } from '../components/page-header.tsx';

export function UploadsPage() {
  return (
    <>
      <PageHeader title="Uploads" />
      <ComingSoon />
    </>
  );
}

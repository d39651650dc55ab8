import { UploadsView } from '../features/uploads/index.ts';

export function UploadsPage() {
  return <UploadsView />;
}

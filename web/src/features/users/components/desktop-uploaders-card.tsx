// Settings' ShareX section: the .sxcu for ShareX and, beside it, the bash and PowerShell scripts
// for files over ShareX's limit. Each holds the user's API token.
import { Download, FileCode2, Share2, Terminal, type LucideIcon } from 'lucide-react';
import { SectionCard } from '../../../components/section-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import type { UploaderKind } from '../api.ts';
import { useSaveUploader } from '../hooks/use-save-uploader.ts';

type Uploader = {
  kind: UploaderKind;
  icon: LucideIcon;
  title: string;
  description: string;
  button: string;
};

const UPLOADERS: Uploader[] = [
  {
    kind: 'sharex',
    icon: Share2,
    title: 'ShareX (Windows)',
    description:
      'Import it into ShareX to upload with your API token. The ShareX limit is 100 MB, imposed by the CDN; larger files should use the web uploader or the PowerShell script.',
    button: 'Download ShareX config',
  },
  {
    kind: 'bash',
    icon: Terminal,
    title: 'Bash script (Linux, macOS)',
    description:
      'Uploads the files you name and copies each link; files over 100 MB go in chunks, and running it again resumes an interrupted upload.',
    button: 'Download bash script',
  },
  {
    kind: 'powershell',
    icon: FileCode2,
    title: 'PowerShell script (Windows)',
    description:
      'The same for Windows PowerShell 5.1 and PowerShell 7: files of any size, in chunks over 100 MB, resumed when run again.',
    button: 'Download PowerShell script',
  },
];

export function DesktopUploadersCard({ userId, username }: { userId: string; username: string }) {
  const uploader = useSaveUploader();
  const owner = { id: userId, username };

  return (
    <SectionCard
      id="desktop"
      title="ShareX Configuration"
      description="Upload from your desktop. These files hold your API token: keep them to yourself."
      icon={<Download aria-hidden="true" className="size-4 text-muted-foreground" />}
    >
      <ul className="flex flex-col gap-4">
        {UPLOADERS.map(({ kind, icon: Icon, title, description, button }) => (
          <li
            key={kind}
            className="flex flex-col gap-3 border-b pb-4 last:border-b-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between sm:gap-6"
          >
            <div className="flex min-w-0 gap-3">
              <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
              <div className="flex min-w-0 flex-col gap-1">
                <span className="text-sm font-medium">{title}</span>
                <p className="text-sm text-muted-foreground">{description}</p>
              </div>
            </div>
            <Button
              variant="outline"
              className="w-full sm:w-auto"
              disabled={uploader.isSaving(owner, kind)}
              onClick={() => void uploader.save(owner, kind)}
            >
              <Download aria-hidden="true" />
              {button}
            </Button>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}

import type { AdminUser } from '@upshot/contract';
import {
  Download,
  KeyRound,
  MoreHorizontal,
  ShieldCheck,
  ShieldOff,
  Trash2,
  UserCheck,
  UserX,
} from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu.tsx';
import type { UploaderKind } from '../../users/index.ts';

export type UserRowHandlers = {
  onResetPassword: (user: AdminUser) => void;
  onDownloadUploader: (user: AdminUser, kind: UploaderKind) => void;
  onSetActive: (user: AdminUser, isActive: boolean) => void;
  onSetRole: (user: AdminUser, role: AdminUser['role']) => void;
  onDelete: (user: AdminUser) => void;
};

const DOWNLOADS: { kind: UploaderKind; label: string }[] = [
  { kind: 'sharex', label: 'Download ShareX config' },
  { kind: 'bash', label: 'Download bash script' },
  { kind: 'powershell', label: 'Download PowerShell script' },
];

/**
 * A row's actions. One's own account cannot be deactivated, deleted or have its password reset
 * from here (a reset signs the user out everywhere, this session too).
 */
export function UserRowMenu({
  user,
  isSelf,
  handlers,
}: {
  user: AdminUser;
  isSelf: boolean;
  handlers: UserRowHandlers;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={`Actions for ${user.username}`}
          data-row-menu={user.id}
        >
          <MoreHorizontal aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="truncate">{user.username}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem disabled={isSelf} onSelect={() => handlers.onResetPassword(user)}>
          <KeyRound aria-hidden="true" />
          Reset password
        </DropdownMenuItem>
        <DropdownMenuGroup>
          {DOWNLOADS.map(({ kind, label }) => (
            <DropdownMenuItem key={kind} onSelect={() => handlers.onDownloadUploader(user, kind)}>
              <Download aria-hidden="true" />
              {label}
            </DropdownMenuItem>
          ))}
        </DropdownMenuGroup>
        <DropdownMenuSeparator />
        {user.role === 'admin' ? (
          <DropdownMenuItem onSelect={() => handlers.onSetRole(user, 'user')}>
            <ShieldOff aria-hidden="true" />
            Make user
          </DropdownMenuItem>
        ) : (
          <DropdownMenuItem onSelect={() => handlers.onSetRole(user, 'admin')}>
            <ShieldCheck aria-hidden="true" />
            Make admin
          </DropdownMenuItem>
        )}
        {user.isActive ? (
          <DropdownMenuItem disabled={isSelf} onSelect={() => handlers.onSetActive(user, false)}>
            <UserX aria-hidden="true" />
            Deactivate
          </DropdownMenuItem>
        ) : (
          <DropdownMenuItem onSelect={() => handlers.onSetActive(user, true)}>
            <UserCheck aria-hidden="true" />
            Activate
          </DropdownMenuItem>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem
          variant="destructive"
          disabled={isSelf}
          onSelect={() => handlers.onDelete(user)}
        >
          <Trash2 aria-hidden="true" />
          Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/**
 * Moves focus to a row's menu button, for a dialog opened from the menu: the item that opened
 * it is gone with the menu. False when the row is gone too.
 */
export function focusRowMenu(userId: string): boolean {
  const button = [...document.querySelectorAll<HTMLElement>('[data-row-menu]')].find(
    (element) => element.dataset.rowMenu === userId,
  );
  button?.focus();
  return button !== undefined;
}

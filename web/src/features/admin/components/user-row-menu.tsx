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
import type { ConfigKind } from '../api.ts';

export type UserRowHandlers = {
  onResetPassword: (user: AdminUser) => void;
  onDownloadConfig: (user: AdminUser, kind: ConfigKind) => void;
  onSetActive: (user: AdminUser, isActive: boolean) => void;
  onSetRole: (user: AdminUser, role: AdminUser['role']) => void;
  onDelete: (user: AdminUser) => void;
};

const DOWNLOADS: { kind: ConfigKind; label: string }[] = [
  { kind: 'sharex', label: 'Download ShareX config' },
  { kind: 'bash', label: 'Download bash script' },
  { kind: 'powershell', label: 'Download PowerShell script' },
];

/** A row's actions. One's own account cannot be deactivated or deleted from here. */
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
        >
          <MoreHorizontal aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="truncate">{user.username}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => handlers.onResetPassword(user)}>
          <KeyRound aria-hidden="true" />
          Reset password
        </DropdownMenuItem>
        <DropdownMenuGroup>
          {DOWNLOADS.map(({ kind, label }) => (
            <DropdownMenuItem key={kind} onSelect={() => handlers.onDownloadConfig(user, kind)}>
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

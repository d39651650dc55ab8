import { Menu } from 'lucide-react';
import { NavLink } from 'react-router';
import { UserMenu, useAuth } from '../../features/auth/index.ts';
import { cn } from '../../lib/utils.ts';
import { Logo } from '../logo.tsx';
import { Button } from '../ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../ui/dropdown-menu.tsx';

function navLinkClass({ isActive }: { isActive: boolean }) {
  return cn(
    'rounded-md px-3 py-1.5 text-sm font-medium transition-colors',
    isActive
      ? 'bg-accent text-accent-foreground'
      : 'text-muted-foreground hover:bg-accent/50 hover:text-foreground',
  );
}

function useNavItems() {
  const { isAdmin } = useAuth();
  return [
    { to: '/dashboard', label: 'Dashboard' },
    { to: '/uploads', label: 'Uploads' },
    ...(isAdmin ? [{ to: '/admin', label: 'Admin' }] : []),
  ];
}

/** Below the `sm` breakpoint the links fold into one menu, so the bar fits a phone. */
function CompactNav() {
  const items = useNavItems();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="sm:hidden" aria-label="Open menu">
          <Menu aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-48">
        {items.map(({ to, label }) => (
          <DropdownMenuItem key={to} asChild>
            <NavLink to={to} className="aria-[current=page]:bg-accent/60">
              {label}
            </NavLink>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export function Navbar() {
  const items = useNavItems();
  return (
    <header className="sticky top-0 z-40 border-b bg-background/80 backdrop-blur supports-[backdrop-filter]:bg-background/60">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-4 sm:gap-6 sm:px-6">
        <CompactNav />
        <NavLink to="/dashboard" aria-label="Upshot home">
          <Logo />
        </NavLink>
        <nav aria-label="Main" className="hidden items-center gap-1 sm:flex">
          {items.map(({ to, label }) => (
            <NavLink key={to} to={to} className={navLinkClass}>
              {label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center">
          <UserMenu />
        </div>
      </div>
    </header>
  );
}

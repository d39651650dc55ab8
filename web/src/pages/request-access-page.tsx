import { Link } from 'react-router';
import { Logo } from '../components/logo.tsx';
import { Button } from '../components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../components/ui/card.tsx';

/** Served at /request-access and /register. The request form arrives with the admin issue. */
export function RequestAccessPage() {
  return (
    <div className="flex min-h-svh flex-col items-center justify-center px-4 py-12">
      <div className="flex w-full max-w-sm flex-col gap-6">
        <Logo className="self-center text-lg" />
        <Card>
          <CardHeader>
            <CardTitle>
              <h1 className="text-xl">Request Access</h1>
            </CardTitle>
            <CardDescription>Upshot is invitation only.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild variant="outline" className="w-full">
              <Link to="/login">Back to Login</Link>
            </Button>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

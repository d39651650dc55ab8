import { Component, type ErrorInfo, type ReactNode } from 'react';
import { LoadError } from './load-error.tsx';

type Props = {
  children: ReactNode;
  /** A new value (the next path) clears the error. */
  resetKey: string;
};
type State = { error: Error | null; resetKey: string };

/** A screen that failed to load or draw; most often a chunk replaced by a newer build. */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div role="alert" className="flex min-h-svh items-center justify-center px-4">
        <LoadError
          onRetry={() => window.location.reload()}
          retryLabel="Reload"
          className="border-0"
        >
          <h1 className="text-xl font-semibold tracking-tight text-foreground">
            Something went wrong
          </h1>
          <p className="max-w-sm break-words">{error.message}</p>
        </LoadError>
      </div>
    );
  }
}

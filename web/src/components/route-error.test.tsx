import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from './route-error.tsx';

function Broken(): never {
  throw new Error('Failed to fetch dynamically imported module: /assets/page.js');
}

describe('RouteErrorBoundary', () => {
  it('shows what failed with a Reload button, and clears when the path changes', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { rerender } = render(
      <RouteErrorBoundary resetKey="/settings">
        <Broken />
      </RouteErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.getByText(/Failed to fetch dynamically imported module/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();

    rerender(
      <RouteErrorBoundary resetKey="/uploads">
        <p>the next page</p>
      </RouteErrorBoundary>,
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('the next page')).toBeInTheDocument();
  });
});

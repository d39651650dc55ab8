// A view limit as typed. A text box, not a number box: a number box reports half-typed input
// ("5e", "1.") as empty, which would read as "no limit" without a word; as text it is refused.
import type { ComponentProps } from 'react';
import { Input } from './ui/input.tsx';

export function ViewLimitInput(
  props: Omit<ComponentProps<typeof Input>, 'type' | 'inputMode' | 'min' | 'step'>,
) {
  return (
    <Input type="text" inputMode="numeric" autoComplete="off" placeholder="No limit" {...props} />
  );
}

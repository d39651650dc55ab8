// The one way a form field is drawn: a label, the control, a hint and an error, wired for
// assistive technology. The control is the only child and receives the wiring through a Slot:
// its id (the label's `for`), aria-labelledby (which names controls a <label> cannot, such as a
// radio group), aria-describedby (hint, then error) and aria-invalid. A control made of several
// parts (an input with buttons beside it) is a component that passes these props to its input.
import { Slot } from 'radix-ui';
import { useId, type ReactElement, type ReactNode } from 'react';
import { cn } from '../lib/utils.ts';
import { Label } from './ui/label.tsx';

type FormFieldProps = {
  label: ReactNode;
  /** Shown under the label or control, always: what to type, or what the setting does. */
  hint?: ReactNode;
  /** What is wrong with the value; marks the control invalid. */
  error?: string | null;
  /**
   * stacked: label above the control. check: a checkbox or switch before its label. row: label
   * and hint beside the control (a settings list).
   */
  layout?: 'stacked' | 'check' | 'row';
  /** The label is read by assistive technology only (the screen already says what it is). */
  hideLabel?: boolean;
  /** More ids that describe the control: a message about the whole form. */
  describedBy?: string;
  /** Marks the control invalid without an error of its own (the form's message says why). */
  invalid?: boolean;
  className?: string;
  labelClassName?: string;
  children: ReactElement;
};

export function FormField({
  label,
  hint,
  error,
  layout = 'stacked',
  hideLabel = false,
  describedBy,
  invalid = false,
  className,
  labelClassName,
  children,
}: FormFieldProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedByIds =
    [hint ? hintId : null, error ? errorId : null, describedBy ?? null]
      .filter((value) => value !== null)
      .join(' ') || undefined;

  const labelElement = (
    <Label id={labelId} htmlFor={id} className={cn(hideLabel && 'sr-only', labelClassName)}>
      {label}
    </Label>
  );
  const control = (
    <Slot.Root
      id={id}
      aria-labelledby={labelId}
      aria-describedby={describedByIds}
      aria-invalid={error || invalid ? true : undefined}
    >
      {children}
    </Slot.Root>
  );
  const hintElement = hint ? (
    <div id={hintId} className="text-sm text-muted-foreground">
      {hint}
    </div>
  ) : null;
  const errorElement = error ? (
    <p id={errorId} className="text-sm text-destructive">
      {error}
    </p>
  ) : null;

  if (layout === 'check') {
    return (
      <div className={cn('flex items-start gap-3', className)}>
        <div className="flex h-5 items-center">{control}</div>
        <div className="grid gap-1">
          {labelElement}
          {hintElement}
          {errorElement}
        </div>
      </div>
    );
  }
  if (layout === 'row') {
    return (
      <div
        className={cn(
          'flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between sm:gap-6',
          className,
        )}
      >
        <div className="flex min-w-0 flex-col gap-1">
          {labelElement}
          {hintElement}
          {errorElement}
        </div>
        <div className="shrink-0">{control}</div>
      </div>
    );
  }
  return (
    <div className={cn('grid gap-2', className)}>
      {labelElement}
      {control}
      {hintElement}
      {errorElement}
    </div>
  );
}

/** A message about the whole form (the server refused it), announced as it appears. */
export function FormError({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="text-sm text-destructive">
      {children}
    </p>
  );
}

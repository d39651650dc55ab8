// New text: a file written here (or pasted on the Uploads screen), saved as an upload with the
// same link choices as the upload dialog. Its type names the file's extension and the type it
// is sent as; a name ending in one of the types' extensions picks that type.
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { FormError, FormField } from '../../../components/form-field.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { useSaveText } from '../hooks/use-save-text.ts';
import { useUploadLinkChoices } from '../hooks/use-upload-link-choices.ts';
import {
  defaultTextFilename,
  PLAIN_TEXT,
  TEXT_TYPES,
  textFile,
  textTypeById,
  textTypeOfName,
  withExtension,
} from '../text-types.ts';
import { UploadLinkOptions } from './upload-link-options.tsx';

/** As long as a stored name may be. */
const FILENAME_MAX = 255;

type NewTextDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What the text starts as (pasted on the screen); read when the dialog opens. */
  initialText?: string;
};

export function NewTextDialog({ open, onOpenChange, initialText = '' }: NewTextDialogProps) {
  const { save, saving } = useSaveText();
  const textRef = useRef<HTMLTextAreaElement>(null);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="sm:max-w-2xl"
        busy={saving}
        // The text is what one came to write. Not autoFocus: the dialog must first see what
        // had the focus, to give it back.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          textRef.current?.focus();
        }}
      >
        {/* Inside the content, so each opening starts afresh (it unmounts once closed). */}
        <NewTextForm
          textRef={textRef}
          initialText={initialText}
          saving={saving}
          onSave={save}
          onDone={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  );
}

function NewTextForm({
  textRef,
  initialText,
  saving,
  onSave,
  onDone,
}: {
  textRef: RefObject<HTMLTextAreaElement | null>;
  initialText: string;
  saving: boolean;
  onSave: ReturnType<typeof useSaveText>['save'];
  onDone: () => void;
}) {
  const [text, setText] = useState(initialText);
  const [filename, setFilename] = useState(() => defaultTextFilename());
  const [typeId, setTypeId] = useState(PLAIN_TEXT.id);
  const [errors, setErrors] = useState<{ filename?: string; text?: string; form?: string }>({});
  const link = useUploadLinkChoices();
  const type = textTypeById(typeId);

  const changeType = (id: string) => {
    setTypeId(id);
    setFilename((name) => withExtension(name, textTypeById(id)));
  };

  const changeFilename = (name: string) => {
    setFilename(name);
    setErrors((current) => ({ ...current, filename: undefined }));
    const named = textTypeOfName(name);
    if (named) setTypeId(named.id);
  };

  // Save was disabled while it had focus, which left focus nowhere: after a refusal, back to
  // the text (enabled again by then) to fix it or try again.
  useEffect(() => {
    if (errors.form) textRef.current?.focus();
  }, [errors.form, textRef]);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const name = filename.trim();
    const problems = {
      filename: name === '' ? 'Enter a file name' : undefined,
      text: text === '' ? 'Type or paste the text to save' : undefined,
    };
    if (problems.filename || problems.text) {
      setErrors(problems);
      return;
    }
    setErrors({});
    // A name without an extension gets its type's; any other extension is the user's choice.
    const fullName = name.lastIndexOf('.') > 0 ? name : `${name}.${type.extension}`;
    const refusal = await onSave(textFile(text, fullName, type), link.options);
    if (refusal === null) onDone();
    else setErrors({ form: refusal });
  };

  return (
    <form onSubmit={(event) => void handleSubmit(event)} className="grid min-w-0 gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>New text</DialogTitle>
        <DialogDescription>
          Saved as a file with its own short link, like any upload.
        </DialogDescription>
      </DialogHeader>

      <div className="grid min-w-0 gap-3 sm:grid-cols-[minmax(0,1fr)_11rem]">
        <FormField label="File name" error={errors.filename}>
          <Input
            value={filename}
            onChange={(event) => changeFilename(event.target.value)}
            maxLength={FILENAME_MAX}
            autoComplete="off"
            spellCheck={false}
            disabled={saving}
          />
        </FormField>
        <FormField label="Type">
          <NativeSelect
            value={typeId}
            onChange={(event) => changeType(event.target.value)}
            disabled={saving}
          >
            {TEXT_TYPES.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label} (.{option.extension})
              </option>
            ))}
          </NativeSelect>
        </FormField>
      </div>

      <FormField label="Text" error={errors.text}>
        <Textarea
          ref={textRef}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setErrors((current) => ({ ...current, text: undefined }));
          }}
          // Long text scrolls inside the box, whose lines wrap: the dialog keeps its size.
          className="max-h-[40svh] min-h-40 font-mono"
          spellCheck={false}
          disabled={saving}
        />
      </FormField>

      <UploadLinkOptions link={link} disabled={saving} />

      {errors.form && <FormError>{errors.form}</FormError>}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving || !link.valid}>
          {saving ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}

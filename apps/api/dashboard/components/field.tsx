import type { Children } from '@kitajs/html';

let counter = 0;

function idFor(name: string, id: string | undefined): string {
  counter = (counter + 1) % 1_000_000;
  return id ?? `f-${name.replace(/[^A-Za-z0-9_-]/g, '')}-${counter}`;
}

/** What ties a control to its label, hint and error. */
interface Labelled {
  id: string;
  label: string;
  hint?: string;
  error?: string | null;
}

function hintIdOf({ id, hint }: Labelled): string | undefined {
  return hint ? `${id}-hint` : undefined;
}

function errorIdOf({ id, error }: Labelled): string | undefined {
  return error ? `${id}-error` : undefined;
}

/** The attributes a control takes from its field: its id, `aria-describedby`, `aria-invalid`. */
function controlAttributes(field: Labelled): {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': 'true' | undefined;
} {
  return {
    id: field.id,
    'aria-describedby': [hintIdOf(field), errorIdOf(field)].filter(Boolean).join(' ') || undefined,
    'aria-invalid': field.error ? 'true' : undefined,
  };
}

/** A control with its label above and its hint and error under it. */
function FieldShell({ field, children }: { field: Labelled; children: Children }): JSX.Element {
  return (
    <div class="field">
      <label for={field.id} safe>
        {field.label}
      </label>
      {children}
      {field.hint ? (
        <p class="hint" id={hintIdOf(field)} safe>
          {field.hint}
        </p>
      ) : (
        ''
      )}
      {field.error ? (
        <p class="error" id={errorIdOf(field)} safe>
          {field.error}
        </p>
      ) : (
        ''
      )}
    </div>
  );
}

export interface FieldProps {
  label: string;
  name: string;
  type?: 'text' | 'email' | 'password' | 'number' | 'url' | 'search' | 'date';
  value?: string;
  id?: string;
  required?: boolean;
  autocomplete?: string;
  hint?: string;
  error?: string | null;
  maxlength?: number;
  inputmode?: 'text' | 'decimal' | 'numeric' | 'email' | 'url';
  pattern?: string;
  placeholder?: string;
}

/** A labelled input with its hint and error tied to it (`aria-describedby`). */
export function Field(props: FieldProps): JSX.Element {
  const field = { ...props, id: idFor(props.name, props.id) };
  return (
    <FieldShell field={field}>
      <input
        {...controlAttributes(field)}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.type === 'password' ? undefined : props.value}
        required={props.required}
        autocomplete={props.autocomplete}
        maxlength={props.maxlength}
        inputmode={props.inputmode}
        pattern={props.pattern}
        placeholder={props.placeholder}
      />
    </FieldShell>
  );
}

export interface SelectFieldProps {
  label: string;
  name: string;
  options: readonly { value: string; label: string }[];
  selected?: string;
  id?: string;
  error?: string | null;
}

/** A labelled select. */
export function SelectField(props: SelectFieldProps): JSX.Element {
  const field = { ...props, id: idFor(props.name, props.id) };
  return (
    <FieldShell field={field}>
      <select {...controlAttributes(field)} name={props.name}>
        {props.options.map((option) => (
          <option value={option.value} selected={option.value === props.selected} safe>
            {option.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

export interface TextAreaFieldProps {
  label: string;
  name?: string;
  value?: string;
  id?: string;
  rows?: number;
  required?: boolean;
  readonly?: boolean;
  hint?: string;
  error?: string | null;
  maxlength?: number;
  class?: string;
}

/** A labelled multi-line text box (one value per line, or text to select and copy). */
export function TextAreaField(props: TextAreaFieldProps): JSX.Element {
  const field = { ...props, id: idFor(props.name ?? 'text', props.id) };
  return (
    <FieldShell field={field}>
      <textarea
        {...controlAttributes(field)}
        name={props.name}
        rows={props.rows === undefined ? undefined : String(props.rows)}
        required={props.required}
        readonly={props.readonly}
        maxlength={props.maxlength}
        spellcheck="false"
        class={props.class}
        safe
      >
        {props.value ?? ''}
      </textarea>
    </FieldShell>
  );
}

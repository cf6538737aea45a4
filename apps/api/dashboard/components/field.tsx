let counter = 0;

function idFor(name: string, id: string | undefined): string {
  counter = (counter + 1) % 1_000_000;
  return id ?? `f-${name.replace(/[^A-Za-z0-9_-]/g, '')}-${counter}`;
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
  const id = idFor(props.name, props.id);
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = props.error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id} safe>
        {props.label}
      </label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.type === 'password' ? undefined : props.value}
        required={props.required}
        autocomplete={props.autocomplete}
        maxlength={props.maxlength}
        inputmode={props.inputmode}
        pattern={props.pattern}
        placeholder={props.placeholder}
        aria-describedby={describedBy}
        aria-invalid={props.error ? 'true' : undefined}
      />
      {props.hint ? (
        <p class="hint" id={hintId} safe>
          {props.hint}
        </p>
      ) : (
        ''
      )}
      {props.error ? (
        <p class="error" id={errorId} safe>
          {props.error}
        </p>
      ) : (
        ''
      )}
    </div>
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
  const id = idFor(props.name, props.id);
  const errorId = props.error ? `${id}-error` : undefined;
  return (
    <div class="field">
      <label for={id} safe>
        {props.label}
      </label>
      <select
        id={id}
        name={props.name}
        aria-describedby={errorId}
        aria-invalid={props.error ? 'true' : undefined}
      >
        {props.options.map((option) => (
          <option value={option.value} selected={option.value === props.selected} safe>
            {option.label}
          </option>
        ))}
      </select>
      {props.error ? (
        <p class="error" id={errorId} safe>
          {props.error}
        </p>
      ) : (
        ''
      )}
    </div>
  );
}

import { bugFields, bugSeverity, type BugFields, type BugSeverity } from '@fullstop/contracts';
import { SEVERITY_LABELS, stepsFromText } from '../../components/bugs/bug-labels.ts';
import { filterOptions, SelectOptions } from '../../components/filter-select.tsx';
import { TextAreaField, TextField } from '../../components/text-field.tsx';

/** A bug's fields as the form holds them: the environment spread out, the steps one a line. */
export interface BugFieldValues {
  title: string;
  severity: BugSeverity;
  url: string;
  browser: string;
  viewport: string;
  device: string;
  steps: string;
  expected: string;
  actual: string;
}

const SEVERITY_OPTIONS = filterOptions(bugSeverity.options, SEVERITY_LABELS);

export type BugFieldErrors = Partial<Record<keyof BugFieldValues, string>>;

export const EMPTY_FIELDS: BugFieldValues = {
  title: '',
  severity: 'medium',
  url: '',
  browser: '',
  viewport: '',
  device: '',
  steps: '',
  expected: '',
  actual: '',
};

export function fieldValuesOf(fields: Partial<BugFields>): BugFieldValues {
  return {
    title: fields.title ?? '',
    severity: fields.severity ?? 'medium',
    url: fields.url ?? '',
    browser: fields.environment?.browser ?? '',
    viewport: fields.environment?.viewport ?? '',
    device: fields.environment?.device ?? '',
    steps: (fields.steps ?? []).join('\n'),
    expected: fields.expected ?? '',
    actual: fields.actual ?? '',
  };
}

/** Where a contract path (`environment.browser`, `steps.3`) is shown in the form. */
function formField(path: readonly PropertyKey[]): keyof BugFieldValues {
  const [first, second] = path;
  if (first === 'environment' && (second === 'browser' || second === 'viewport' || second === 'device')) return second;
  if (first === 'title' || first === 'severity' || first === 'url' || first === 'steps' || first === 'expected' || first === 'actual') return first;
  return 'title';
}

/** The server's `field` ("environment.browser", "steps") as the form's field. */
export const formFieldOf = (field: string) => formField(field.split('.'));

const sentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1) + (message.endsWith('.') ? '' : '.');

/** The fields checked by the contract: the body to send, or each field's first problem. */
export function parseFieldValues(values: BugFieldValues): { ok: true; fields: BugFields } | { ok: false; errors: BugFieldErrors } {
  const environment = Object.fromEntries(
    (['browser', 'viewport', 'device'] as const).filter((k) => values[k].trim()).map((k) => [k, values[k].trim()]),
  );
  const parsed = bugFields.safeParse({
    title: values.title,
    severity: values.severity,
    url: values.url.trim(),
    environment,
    steps: stepsFromText(values.steps),
    expected: values.expected,
    actual: values.actual,
  });
  if (parsed.success) return { ok: true, fields: parsed.data };
  const errors: BugFieldErrors = {};
  for (const issue of parsed.error.issues) errors[formField(issue.path)] ??= sentence(issue.message);
  return { ok: false, errors };
}

/** The fields checked and their problems shown (or cleared): the body to send, or null when something is wrong. */
export function checkFieldValues(values: BugFieldValues, showErrors: (errors: BugFieldErrors) => void): BugFields | null {
  const parsed = parseFieldValues(values);
  showErrors(parsed.ok ? {} : parsed.errors);
  return parsed.ok ? parsed.fields : null;
}

interface BugFieldsFormProps {
  idPrefix: string;
  values: BugFieldValues;
  errors: BugFieldErrors;
  onChange: (values: BugFieldValues) => void;
}

/** Title, severity, URL, environment, steps, expected and actual: what an operator writes in a bug. */
export function BugFieldsForm({ idPrefix, values, errors, onChange }: BugFieldsFormProps) {
  const set = <K extends keyof BugFieldValues>(key: K, value: BugFieldValues[K]) => onChange({ ...values, [key]: value });
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <>
      <TextField id={id('title')} label="Title" value={values.title} maxLength={200} onChange={(e) => set('title', e.target.value)} error={errors.title} />
      <div className="bug-form__grid">
        <div className="portal-field">
          <label htmlFor={id('severity')}>Severity</label>
          <select id={id('severity')} value={values.severity} onChange={(e) => set('severity', bugSeverity.parse(e.target.value))}>
            <SelectOptions options={SEVERITY_OPTIONS} />
          </select>
        </div>
        <div className="bug-form__wide">
          <TextField id={id('url')} label="URL" value={values.url} maxLength={2000} onChange={(e) => set('url', e.target.value)} error={errors.url} />
        </div>
      </div>
      <div className="bug-form__grid">
        <TextField id={id('browser')} label="Browser" value={values.browser} maxLength={200} onChange={(e) => set('browser', e.target.value)} error={errors.browser} />
        <TextField id={id('viewport')} label="Viewport" value={values.viewport} maxLength={50} placeholder="1280×720" onChange={(e) => set('viewport', e.target.value)} error={errors.viewport} />
        <TextField id={id('device')} label="Device" value={values.device} maxLength={200} onChange={(e) => set('device', e.target.value)} error={errors.device} />
      </div>
      <TextAreaField id={id('steps')} label="Steps to reproduce (one a line)" rows={5} value={values.steps} onChange={(e) => set('steps', e.target.value)} error={errors.steps} />
      <div className="bug-outcomes">
        <TextAreaField id={id('expected')} label="Expected" rows={3} value={values.expected} maxLength={10_000} onChange={(e) => set('expected', e.target.value)} error={errors.expected} />
        <TextAreaField id={id('actual')} label="Actual" rows={3} value={values.actual} maxLength={10_000} onChange={(e) => set('actual', e.target.value)} error={errors.actual} />
      </div>
    </>
  );
}

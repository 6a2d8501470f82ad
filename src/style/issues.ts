/** One validation finding: where (`layers[2].paint.line-width`) and what. */
export interface StyleIssue {
  readonly path: string;
  readonly message: string;
}

/** Result of {@link validateStyle} / {@link validateStyleLayer}: errors make the style unusable as written. */
export interface StyleValidationResult {
  readonly errors: StyleIssue[];
  readonly warnings: StyleIssue[];
}

/** Mutable collector used while validating. */
export class IssueCollector implements StyleValidationResult {
  readonly errors: StyleIssue[] = [];
  readonly warnings: StyleIssue[] = [];

  error(path: string, message: string): void {
    this.errors.push({ path, message });
  }

  warn(path: string, message: string): void {
    this.warnings.push({ path, message });
  }
}

/** Joins a path prefix and a key: `joinPath('layers[2]', 'paint')` = `layers[2].paint`. */
export function joinPath(prefix: string, key: string): string {
  if (!prefix) return key;
  return key.startsWith('[') ? prefix + key : `${prefix}.${key}`;
}

/** JSON text of a value for messages, shortened to 60 characters. */
export function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

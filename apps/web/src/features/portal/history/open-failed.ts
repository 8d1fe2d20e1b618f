import { describeError } from '@/lib/http-client.ts';

/** What the reader is told when a report or a piece of evidence could not be opened (`what`: "the report"). */
export function openFailed(what: string): (error: unknown) => void {
  return (error) => {
    console.error(`Could not open ${what}`, error);
    window.alert(`Could not open ${what}: ${describeError(error)}`);
  };
}

/** How a report body is rendered. */
export interface RenderOptions {
  /** A screenshot's data: URI by its path relative to the run folder (see screenshots.ts); absent: a note instead. */
  image?: (path: string) => string | undefined;
  /** In a run report: failures in full, passes counted, long lists cut short. */
  condensed?: boolean;
}

/** The spec's exact alert texts for the setup page. */
export const SETUP_TEXT = {
  tokenCopied: 'Token copied to clipboard.',
  uploadErrorPrefix: 'Error uploading file: ',
  /** Ours (not the spec's): a build that could not be deleted. */
  deleteErrorPrefix: 'Error deleting the build: ',
} as const;

/** The spec's exact alert texts for the setup page. */
export const SETUP_TEXT = {
  tokenCopied: 'Token copied to clipboard.',
  uploadErrorPrefix: 'Error uploading file: ',
} as const;

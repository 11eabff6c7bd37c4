// In a file of its own: the upload widget on the form pages needs only this, not the view model.
/**
 * A file's size as the upload widget, the print view and the PDF all write it: bytes below 1 KB,
 * else KB or MB with one decimal ("512 B", "12.3 KB", "1.0 MB").
 */
export function formatDocumentSize(bytes: number): string {
  if (bytes < 1024) return `${Math.max(0, Math.round(bytes))} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

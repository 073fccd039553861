/** Where a CLI command writes its output and its errors. */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

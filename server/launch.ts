// How the language server's Node process is started. The extension (client/languageClient.ts)
// and the benchmark (bench/lsp.ts) both start it with these flags, so the figures are the ones
// users get. Only what cannot be set once the process runs belongs here (see heap.ts for the rest).

/**
 * The young generation's two halves at 8 MiB each instead of up to 16: 16 MiB less resident
 * memory (measured: RSS ~128 instead of ~140 MiB at 1,000 tasks) for a little more scavenging.
 * Smaller halves cost more: a keystroke's garbage (~2.6 MB at 1,000 tasks) then outlives them.
 * A documented Node option; an editor that starts the server itself may pass it too.
 */
export const SERVER_EXEC_ARGV: readonly string[] = ['--max-semi-space-size=8'];

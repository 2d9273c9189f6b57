/** A bench (`npm run bench`, or one part run alone) that cannot finish says why in one `[bench] ...` line, exit 1, never with a stack trace. */
export async function endInOneLine(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(message.startsWith('[bench]') ? message : `[bench] stopped: ${message}`);
    process.exit(1);
  }
}

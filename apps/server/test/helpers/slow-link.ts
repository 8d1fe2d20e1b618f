import net from 'node:net';

/**
 * A TCP link to PostgreSQL whose answers arrive late (each chunk from the database held `delayMs`, in order), as
 * from a database across a slow network: a process connected through it hears notifications after processes
 * connected directly have moved on. Returns the URL to give that process, and how to close the link.
 */
export async function slowLinkTo(databaseUrl: string, delayMs: number): Promise<{ url: string; close: () => Promise<void> }> {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    let last = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      last = last.then(() => new Promise<void>((resolve) => setTimeout(resolve, delayMs))).then(() => {
        if (!client.destroyed) client.write(chunk);
      });
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', () => void last.then(end)).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

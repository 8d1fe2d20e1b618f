import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A bare Node http server in its own process, so the load generator and the target do not share an event loop
 * (on 2 cores: one each). Answers every request with a small text body.
 */
const SERVER_SOURCE = `
const http = require('node:http');
let count = 0;
const server = http.createServer((req, res) => {
  count++;
  if (req.url === '/__count') { res.end(String(count)); return; }
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 11 });
  res.end('hello world');
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

export async function startTargetProcess(): Promise<{ url: string; stop(): void }> {
  const child: ChildProcess = spawn(process.execPath, ['-e', SERVER_SOURCE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`target exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

// The child process behind test/helpers/s3.ts: s3rver on 127.0.0.1 (port 0), silent, in the folder and with the
// bucket given as JSON in argv[2]. Prints `{"port":N}` once listening; exits when its parent closes stdin (so a
// crashed test run leaves no server behind) or on SIGTERM.
//
// A process of its own because s3rver's continuation tokens use DES, which Node's OpenSSL 3 only has with
// --openssl-legacy-provider (a flag we do not want in the test process itself), and because tsx cannot load
// one of koa's dependencies (generator-function's `module.exports` export) when a bench imports s3rver.
import S3rver from 's3rver';

const { directory, bucket } = JSON.parse(process.argv[2] ?? '{}');
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: bucket ? [{ name: bucket }] : [] });
server.on('error', () => {}); // a request's error is answered as S3 XML by s3rver; nothing to add here

let closing = false;
const stop = () => {
  if (closing) return;
  closing = true;
  server.close().then(() => process.exit(0), () => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.stdin.on('error', stop);
process.stdin.on('end', stop);
process.stdin.resume();
process.on('SIGTERM', stop);

const address = await server.run();
server.httpServer.on('clientError', (_err, socket) => socket.destroy());
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);

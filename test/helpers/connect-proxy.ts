// A real HTTP CONNECT proxy on loopback, as corporate proxies are: it opens a tunnel to the host:port
// asked for and pipes bytes both ways. It records each CONNECT (and any request that is not one), so a
// test can tell whether a client went through it. With `auth`, it wants that Proxy-Authorization.
import { createServer, type IncomingMessage } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

export interface ConnectProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `host:port` of every CONNECT received, in order. */
  tunnels: string[];
  /** Requests that were not CONNECT (a client using the proxy as a plain forwarder). */
  forwarded: string[];
  /** Proxy-Authorization of each CONNECT, or undefined. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

export async function startConnectProxy(): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    forwarded.push(`${req.method} ${req.url}`);
    res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('this proxy only tunnels (CONNECT)');
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    tunnels.push(target);
    authorizations.push(req.headers['proxy-authorization']);
    sockets.add(client);
    const [host, port] = target.split(':');
    const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', () => {
      if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      end();
    });
    client.on('error', end);
    upstream.on('close', end);
    client.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    forwarded,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

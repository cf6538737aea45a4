import { createServer, connect, Server, Socket } from 'node:net';

/** One proxied connection: the client's socket and ours to the target. */
interface Link {
  client: Socket;
  upstream: Socket;
}

/**
 * A loopback TCP proxy that can cut, hang and restore a dependency without touching the real
 * server.
 */
export class TcpProxy {
  private readonly links = new Set<Link>();
  private readonly server: Server;
  private up = true;
  private hung = false;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = createServer((client) => this.accept(client));
  }

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetHost, targetPort);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  /** Drops every open connection and refuses new ones. */
  cut(): void {
    this.up = false;
    for (const { client, upstream } of this.links) {
      client.destroy();
      upstream.destroy();
    }
  }

  /**
   * Like a network partition: every connection, open or new, stays open but nothing crosses it
   * in either direction. What was sent meanwhile waits and arrives once `restore()` is called, as
   * TCP retransmits it after a partition heals.
   */
  hang(): void {
    this.hung = true;
    for (const link of this.links) {
      stall(link);
    }
  }

  /** Ends a cut or a hang. */
  restore(): void {
    this.up = true;
    if (this.hung) {
      this.hung = false;
      for (const link of this.links) {
        forward(link);
      }
    }
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (!this.up) {
      client.destroy();
      return;
    }
    const link = { client, upstream: connect(this.targetPort, this.targetHost) };
    this.links.add(link);
    for (const socket of [link.client, link.upstream]) {
      socket.on('close', () => {
        link.client.destroy();
        link.upstream.destroy();
        this.links.delete(link);
      });
      socket.on('error', () => socket.destroy());
    }
    if (this.hung) {
      stall(link);
    } else {
      forward(link);
    }
  }
}

function forward({ client, upstream }: Link): void {
  client.pipe(upstream);
  upstream.pipe(client);
}

/** Unpiped and paused, a socket reads nothing: what arrives stays in its buffers. */
function stall({ client, upstream }: Link): void {
  client.unpipe(upstream);
  upstream.unpipe(client);
  client.pause();
  upstream.pause();
}

import net from "node:net";

// The unit tier opens no socket: no database, no server, no network. A test
// that tries fails here, naming the address, and belongs in the integration
// tier (tests/integration).

const refuse = function (this: net.Socket, ...args: unknown[]): never {
  throw new Error(`a unit test opened a socket (${JSON.stringify(args[0])}): it belongs in tests/integration`);
};
net.Socket.prototype.connect = refuse as typeof net.Socket.prototype.connect;

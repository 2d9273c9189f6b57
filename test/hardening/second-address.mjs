/**
 * Preloaded (node --import) into an emulator on a host whose only interface is loopback: a
 * connection made to 127.0.0.2 is shown to the emulator as coming from 192.0.2.77 (a documentation
 * address), so the control guard meets a non-loopback caller on a real socket. Other connections
 * are untouched.
 */
import { Server } from 'node:net';

const emit = Server.prototype.emit;
Server.prototype.emit = function (event, socket, ...rest) {
  if (event === 'connection' && socket.localAddress === '127.0.0.2') Object.defineProperty(socket, 'remoteAddress', { value: '192.0.2.77' });
  return emit.call(this, event, socket, ...rest);
};

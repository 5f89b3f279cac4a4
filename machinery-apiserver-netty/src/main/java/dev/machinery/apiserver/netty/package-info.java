/**
 * The API server's HTTP binding on Netty. {@link dev.machinery.apiserver.netty.NettyBinding} starts
 * a server with the {@link dev.machinery.apiserver.netty.NettyOptions} given: a few event loops
 * read and write every connection, and the handler runs on a bounded pool of threads, so that a
 * slow or idle client holds no thread while it sends its request, and a watcher that stops reading
 * holds a bounded amount of memory.
 */
package dev.machinery.apiserver.netty;

/**
 * Machinery's client talking to an {@link dev.machinery.apiserver.ApiServer} in the same process:
 * {@link dev.machinery.apiserver.client.InProcessTransport} hands the client's requests to the
 * server's request path without a socket, watches streamed through a pipe.
 */
package dev.machinery.apiserver.client;

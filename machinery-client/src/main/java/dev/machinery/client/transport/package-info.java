/**
 * How the client reaches a server: the {@link dev.machinery.client.transport.Transport} interface
 * (one request, one response whose body is read as it arrives) and {@link
 * dev.machinery.client.transport.HttpTransport}, its implementation on the JDK's HTTP client.
 */
package dev.machinery.client.transport;

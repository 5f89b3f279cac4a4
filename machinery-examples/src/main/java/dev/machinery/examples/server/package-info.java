/**
 * The sample API server built on machinery-apiserver: {@link
 * dev.machinery.examples.server.SampleServer}.
 */
package dev.machinery.examples.server;

/**
 * The sample API server built on machinery-apiserver: {@link
 * dev.machinery.examples.server.SampleServer}, Kubernetes' built-in kinds and the sample's own, its
 * command line read by {@link dev.machinery.examples.server.SampleServerFlags}.
 */
package dev.machinery.examples.server;

/**
 * fabric8's mock Kubernetes API server as a program of its own, measured by {@code HttpLoad} and
 * {@code WatchFanOutLoad} in {@code machinery-benchmarks} beside the sample server (never deployed;
 * nothing depends on it).
 */
package dev.machinery.benchmarks.fabric8mock;

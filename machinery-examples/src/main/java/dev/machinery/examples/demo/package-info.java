/**
 * The sample server's {@code demo.example.dev} group: a Rollout (a kind whose spec and status are a
 * Deployment's) served in {@code v1beta1} and {@code v1}, one object in storage, converted by
 * generated code; {@link dev.machinery.examples.demo.DemoApi} registers it.
 */
package dev.machinery.examples.demo;

/**
 * Runnable demonstrations of Machinery: {@link dev.machinery.examples.decode.DecodeManifest}
 * decodes a YAML manifest and prints what it found; {@link dev.machinery.examples.gizmo.GizmoApi}
 * is a versioned API with generated conversions; {@link dev.machinery.examples.server.SampleServer}
 * is an API server of Kubernetes' built-in kinds and the sample's own; {@link
 * dev.machinery.examples.webpage.WebPageOperator} is a controller on the controller runtime.
 */
module dev.machinery.examples {
  requires transitive dev.machinery.unversioned;
  requires transitive dev.machinery.apiserver;
  requires transitive dev.machinery.apiserver.netty;
  requires dev.machinery.storage.etcd;
  requires transitive dev.machinery.builtins;
  requires transitive dev.machinery.client;
  requires transitive dev.machinery.controller;
  requires transitive dev.machinery.api;
  requires transitive dev.machinery.cluster;

  exports dev.machinery.examples.api;
  exports dev.machinery.examples.apps;
  exports dev.machinery.examples.demo;
  exports dev.machinery.examples.demo.v1;
  exports dev.machinery.examples.demo.v1beta1;
  exports dev.machinery.examples.demo.internal;
  exports dev.machinery.examples.core;
  exports dev.machinery.examples.frobber;
  exports dev.machinery.examples.frobber.v6;
  exports dev.machinery.examples.frobber.v7beta1;
  exports dev.machinery.examples.frobber.internal;
  exports dev.machinery.examples.server;
  exports dev.machinery.examples.sites;
  exports dev.machinery.examples.webpage;
  exports dev.machinery.examples.decode;
  exports dev.machinery.examples.gizmo;
  exports dev.machinery.examples.gizmo.v1;
  exports dev.machinery.examples.gizmo.v2;
  exports dev.machinery.examples.gizmo.internal;

  opens dev.machinery.examples.api to
      com.fasterxml.jackson.databind;
  opens dev.machinery.examples.apps to
      com.fasterxml.jackson.databind;
  opens dev.machinery.examples.demo.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.examples.demo.v1beta1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.examples.demo.internal to
      com.fasterxml.jackson.databind;
  opens dev.machinery.examples.core to
      com.fasterxml.jackson.databind;
  opens dev.machinery.examples.frobber.v6 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.examples.frobber.v7beta1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.examples.frobber.internal to
      com.fasterxml.jackson.databind;
  opens dev.machinery.examples.sites to
      com.fasterxml.jackson.databind;
  opens dev.machinery.examples.webpage to
      com.fasterxml.jackson.databind;
}

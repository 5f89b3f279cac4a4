/**
 * Controllers after sigs.k8s.io/controller-runtime: a {@link dev.machinery.controller.Reconciler}
 * brings one object, named by a {@link dev.machinery.controller.Request}, to its desired state; a
 * {@link dev.machinery.controller.Controller} feeds it requests from informers through {@link
 * dev.machinery.controller.EventHandler}s and {@link dev.machinery.controller.Predicate}s on a
 * rate-limited work queue; a {@link dev.machinery.controller.Manager} starts the informers, waits
 * for their caches, runs the controllers (behind leader election if asked) and stops everything in
 * reverse order.
 */
package dev.machinery.controller;

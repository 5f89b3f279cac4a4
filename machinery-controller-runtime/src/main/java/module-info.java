/**
 * Machinery's controller runtime: informers, work queues, leader election, events, reconcilers
 * and their manager.
 */
module dev.machinery.controller {
  requires transitive dev.machinery.unversioned;

}

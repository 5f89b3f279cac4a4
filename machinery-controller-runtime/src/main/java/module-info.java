/**
 * Machinery's controller runtime: informers, work queues, leader election, events, reconcilers and
 * their manager.
 */
module dev.machinery.controller {
  requires transitive dev.machinery.unversioned;

  exports dev.machinery.controller.clock;
  exports dev.machinery.controller.workqueue;
  exports dev.machinery.controller.cache;
  exports dev.machinery.controller.leaderelection;
  exports dev.machinery.controller.events;
}

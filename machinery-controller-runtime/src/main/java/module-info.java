/**
 * Machinery's controller runtime: informers, work queues, leader election, events, reconcilers and
 * their manager.
 */
module dev.machinery.controller {
  requires transitive dev.machinery.unversioned;
  requires transitive dev.machinery.client;

  exports dev.machinery.controller;
  exports dev.machinery.controller.clock;
  exports dev.machinery.controller.workqueue;
  exports dev.machinery.controller.cache;
  exports dev.machinery.controller.leaderelection;
  exports dev.machinery.controller.events;
  exports dev.machinery.controller.client;
}

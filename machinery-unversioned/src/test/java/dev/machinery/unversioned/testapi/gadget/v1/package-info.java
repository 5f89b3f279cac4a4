/** Gadget v1: a kind whose metadata is the library's own ObjectMeta. */
@GenerateConversions(internalPackage = "dev.machinery.unversioned.testapi.gadget.internal")
package dev.machinery.unversioned.testapi.gadget.v1;

import dev.machinery.conversion.GenerateConversions;

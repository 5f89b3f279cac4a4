/** Gadget's internal form. */
@GenerateDeepCopy
package dev.machinery.unversioned.testapi.gadget.internal;

import dev.machinery.conversion.GenerateDeepCopy;

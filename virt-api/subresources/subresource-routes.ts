/**
 * The HTTP side of subresources.kubevirt.io/v1: discovery, version, the VM lifecycle PUTs
 * (202 Accepted, as KubeVirt), addvolume/removevolume on VMs and VMIs (202 too), pause/unpause
 * (forwarded to the VMI's virt-handler), the guest agent's guestosinfo, userlist and
 * filesystemlist (forwarded too), and a VM's expand-spec and a namespace's expand-vm-spec. console, vnc and portforward are WebSockets
 * (console/stream-upgrade.ts); a plain GET of them is a 400.
 */

import type { TLSSocket } from "node:tls";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { VersionInfo } from "../../api/index.js";
import { verifyFrontProxy } from "../auth/request-header-authenticator.js";
import { asStatusError, badRequest, methodNotAllowed, pathNotFound } from "../status/status-error.js";
import { admitCaller, admitNamespaceCaller } from "./admit-caller.js";
import { apiGroup, apiResourceList, EXPAND_VM_SPEC } from "./discovery.js";
import { expandedVm, sentVmFailure, storedVmFailure, vmOfBody } from "./expand-spec.js";
import { readVm } from "./read-vm.js";
import { readVmi } from "./read-vmi.js";
import {
  dryRunOnlyOf,
  type Query,
  restartOptionsOf,
  startOptionsOf,
  stopOptionsOf,
} from "./request-options.js";
import {
  GROUP_VERSION_PATH,
  handlerPathOf,
  type RequestTarget,
  requestTargetOf,
  SUBRESOURCE_GROUP,
  SUBRESOURCE_ROUTES,
} from "./request-target.js";
import type { SubresourceDependencies } from "./subresource-dependencies.js";
import { planRestart, planStart, planStop } from "./vm-lifecycle.js";
import { carryOut, type Planner } from "./vm-lifecycle-writer.js";
import { checkVmiFor } from "./vmi-checks.js";
import { serveVolumeRequest } from "./volume-requests.js";

export function registerSubresourceRoutes(
  app: FastifyInstance,
  deps: SubresourceDependencies,
  versionInfo: VersionInfo,
): void {
  // Discovery and version: any caller the front-proxy vouches for (as kube's system:discovery role allows).
  const discovery = (document: () => unknown) => async (request: FastifyRequest) => {
    verifyFrontProxy(deps.requestHeader.current(), request.raw.socket as TLSSocket);
    return document();
  };
  app.get(`/apis/${SUBRESOURCE_GROUP}`, discovery(apiGroup));
  app.get(GROUP_VERSION_PATH, discovery(apiResourceList));
  app.get(
    `${GROUP_VERSION_PATH}/version`,
    discovery(() => versionInfo),
  );

  const subresourceHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const target = requestTargetOf(request.url);
    if (!target) throw pathNotFound(request.url);
    const route = SUBRESOURCE_ROUTES[target.subresource];
    if (request.method !== route.method) throw methodNotAllowed(request.method, request.url);
    try {
      await admitCaller(deps, request.raw.socket as TLSSocket, request.raw.headersDistinct, target);
      const code = await serve(deps, target, request, reply);
      deps.metrics.request(target.subresource, code);
    } catch (error) {
      deps.metrics.request(target.subresource, asStatusError(error).code);
      throw error;
    }
  };
  const methods = ["GET", "PUT", "POST", "PATCH", "DELETE"] as const;
  const objectPath = `${GROUP_VERSION_PATH}/namespaces/:namespace/:resource/:name`;
  app.route({ method: [...methods], url: `${objectPath}/:subresource`, handler: subresourceHandler });
  app.route({
    method: [...methods],
    url: `${GROUP_VERSION_PATH}/namespaces/:namespace/${EXPAND_VM_SPEC}`,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { namespace } = request.params as { namespace: string };
      if (request.method !== "PUT") throw methodNotAllowed(request.method, request.url);
      try {
        await admitNamespaceCaller(deps, request.raw.socket as TLSSocket, request.raw.headersDistinct, {
          namespace,
          resource: EXPAND_VM_SPEC,
          verb: "update",
        });
        const vm = vmOfBody(request.body, namespace);
        const defaults = deps.clusterSettings.current().defaults;
        const expanded = await expandedVm(vm, deps.references, defaults, sentVmFailure);
        await reply.code(200).type("application/json").send(JSON.stringify(expanded));
        deps.metrics.request(EXPAND_VM_SPEC, 200);
      } catch (error) {
        deps.metrics.request(EXPAND_VM_SPEC, asStatusError(error).code);
        throw error;
      }
    },
  });
  // portforward's port and protocol follow it in the path (`.../portforward/22/tcp`).
  app.route({ method: [...methods], url: `${objectPath}/portforward/*`, handler: subresourceHandler });
}

/** Answers the request; returns the HTTP code sent. */
async function serve(
  deps: SubresourceDependencies,
  target: RequestTarget,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<number> {
  const query = request.query as Query;
  const ref = { namespace: target.namespace, name: target.name };
  switch (target.subresource) {
    case "start":
    case "stop":
    case "restart": {
      const { planner, dryRun } = plannerOf(target.subresource, request.body, query);
      await carryOut({ vms: deps.vms, vmis: deps.vmis }, ref, planner, { dryRun, log: deps.log });
      await reply.code(202).send();
      return 202;
    }
    case "addvolume":
    case "removevolume": {
      await serveVolumeRequest(deps, { ...target, subresource: target.subresource }, request.body, query);
      await reply.code(202).send();
      return 202;
    }
    case "pause":
    case "unpause": {
      const { dryRun } = dryRunOnlyOf(
        request.body,
        query,
        target.subresource === "pause" ? "PauseOptions" : "UnpauseOptions",
      );
      const vmi = await readVmi(deps.vmis, ref);
      checkVmiFor(target.subresource, vmi);
      if (!dryRun) {
        const address = await deps.handlerLocator.addressFor(vmi);
        await deps.handlerClient.send(address, "PUT", handlerPathOf(target), "{}");
      }
      await reply.code(200).send();
      return 200;
    }
    case "guestosinfo":
    case "userlist":
    case "filesystemlist": {
      const vmi = await readVmi(deps.vmis, ref);
      checkVmiFor(target.subresource, vmi);
      const address = await deps.handlerLocator.addressFor(vmi);
      const answer = await deps.handlerClient.send(address, "GET", handlerPathOf(target));
      await reply.code(200).type("application/json").send(answer.body);
      return 200;
    }
    case "expand-spec": {
      const vm = await readVm(deps.vms, ref);
      const defaults = deps.clusterSettings.current().defaults;
      const expanded = await expandedVm(vm, deps.references, defaults, storedVmFailure);
      await reply.code(200).type("application/json").send(JSON.stringify(expanded));
      return 200;
    }
    case "console":
    case "vnc":
    case "portforward":
      throw badRequest(
        `${target.subresource} is a WebSocket subresource: connect with an Upgrade: websocket request`,
      );
  }
}

function plannerOf(
  subresource: "start" | "stop" | "restart",
  body: unknown,
  query: Query,
): { planner: Planner; dryRun: boolean } {
  switch (subresource) {
    case "start": {
      const options = startOptionsOf(body, query);
      return { planner: (vm, vmi) => planStart(vm, vmi, options), dryRun: options.dryRun };
    }
    case "stop": {
      const options = stopOptionsOf(body, query);
      return { planner: (vm, vmi) => planStop(vm, vmi, options), dryRun: options.dryRun };
    }
    case "restart": {
      const options = restartOptionsOf(body, query);
      return { planner: (vm, vmi) => planRestart(vm, vmi, options), dryRun: options.dryRun };
    }
  }
}

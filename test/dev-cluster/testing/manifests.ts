/** The images of the end-to-end test, mapped to programs by the image map the test writes. */
export const images = {
  httpServer: "localhost/http-test-server",
  pause: "localhost/e2e-pause",
  crasher: "localhost/e2e-crasher",
};

/** The image map file's content: the compiled test server, a waiting process, and one that exits 3. */
export function imageMap(httpServerProgram: string): string {
  return JSON.stringify({
    images: {
      [images.httpServer]: { command: [process.execPath, httpServerProgram] },
      [images.pause]: { command: ["sleep", "infinity"] },
      [images.crasher]: { command: ["/bin/sh", "-c", "echo crashing on purpose; exit 3"] },
    },
  });
}

export const serverPort = 8080;

/** Two replicas of the test server on the local node, both on port 8080 of their own pod IP. */
export function webDeployment(nodeName: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {kubernetes.io/hostname: ${nodeName}}
      terminationGracePeriodSeconds: 5
      containers:
        - name: server
          image: ${images.httpServer}
          ports: [{containerPort: ${serverPort}}]
          env:
            - {name: PORT, value: "${serverPort}"}
            - name: POD_IP
              valueFrom: {fieldRef: {fieldPath: status.podIP}}
            - name: POD_NAME
              valueFrom: {fieldRef: {fieldPath: metadata.name}}
          readinessProbe:
            httpGet: {path: /ready, port: ${serverPort}}
            periodSeconds: 1
`;
}

export const webService = `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: ${serverPort}}]
`;

/** The web pods again, behind a NodePort Service. */
export const webNodePortService = `apiVersion: v1
kind: Service
metadata: {name: web-np}
spec:
  type: NodePort
  selector: {app: web}
  ports: [{name: http, port: 8000, targetPort: ${serverPort}}]
`;

/** A DaemonSet that tolerates every taint, so it lands on the local and every simulated node. */
export const everyNodeDaemonSet = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: everywhere}
spec:
  selector: {matchLabels: {app: everywhere}}
  template:
    metadata: {labels: {app: everywhere}}
    spec:
      terminationGracePeriodSeconds: 2
      tolerations: [{operator: Exists}]
      containers:
        - {name: pause, image: ${images.pause}}
`;

export function crashingPod(nodeName: string): string {
  return `apiVersion: v1
kind: Pod
metadata: {name: crasher}
spec:
  nodeSelector: {kubernetes.io/hostname: ${nodeName}}
  restartPolicy: Always
  containers:
    - {name: crasher, image: ${images.crasher}}
`;
}

export const unschedulablePod = `apiVersion: v1
kind: Pod
metadata: {name: nowhere}
spec:
  nodeSelector: {e2e.kubevirt-ts.io/zone: nowhere}
  containers:
    - {name: pause, image: ${images.pause}}
`;

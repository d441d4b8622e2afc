// CPU (this thread's, user + system) and wall time per commit-sized WAL
// write: a 4 KiB block rewritten in place in a zero-filled file (123 bytes
// of new records each time), then made durable. mode 0: buffered pwrite +
// fdatasync (RocksDB's own WAL); mode 1: O_DIRECT pwrite + fdatasync
// (storage/wal_file_system.cpp's direct WAL); mode 2: O_DIRECT|O_DSYNC
// pwrite. Writes /work/dsync.probe (or the path in $PROBE_FILE).
//
//   cc -O2 -o /tmp/wal_sync_cpu_probe bench/wal_sync_cpu_probe.c
//   for m in 0 1 2; do /tmp/wal_sync_cpu_probe $m; done
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
static double clk(int id){struct timespec t;clock_gettime(id,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
int main(int argc, char**argv){
  const char*p=getenv("PROBE_FILE")?getenv("PROBE_FILE"):"/work/dsync.probe"; int n=3000; int mode=atoi(argv[1]);
  int fd=open(p,O_RDWR|O_CREAT|O_TRUNC,0644); char*z=calloc(1,4<<20); write(fd,z,4<<20); fsync(fd); close(fd);
  int flags = O_RDWR | (mode>=1?O_DIRECT:0) | (mode==2?O_DSYNC:0);
  fd=open(p,flags);
  char*buf; posix_memalign((void**)&buf,4096,4096); memset(buf,'x',4096); off_t off=0; double cw=0,cs=0,w0=clk(CLOCK_MONOTONIC);
  for(int i=0;i<n;i++){ double a=clk(CLOCK_THREAD_CPUTIME_ID); pwrite(fd,buf,4096,(off/4096)*4096); double b=clk(CLOCK_THREAD_CPUTIME_ID); if(mode!=2) fdatasync(fd); double c=clk(CLOCK_THREAD_CPUTIME_ID); cw+=b-a; cs+=c-b; off+=123; if (off > (4<<20) - 8192) off = 0;}
  printf("mode %d: write cpu %.1f us, fdatasync cpu %.1f us, total cpu %.1f, wall/commit %.1f us\n", mode, cw/n, cs/n, (cw+cs)/n, (clk(CLOCK_MONOTONIC)-w0)/n);
  close(fd); unlink(p);
}

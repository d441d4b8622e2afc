// Round trips over loopback TCP between two processes, the server taking D
// microseconds per request: mode 1 spins (only the client's CPU idles),
// mode 0 sleeps in nanosleep. Prints the round trip and what it costs
// beyond D. On this kind of VM the cost steps up by ~30 us once the client
// waits longer than ~150-170 us: its idle vCPU is then slow to wake
// (bench/HISTORY.md, "one-client INSERT, where the time went").
//
//   cc -O2 -o /tmp/wake_probe bench/wake_probe.c
//   for d in 100 130 150 170 190; do /tmp/wake_probe $d 5000 1; done
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
int main(int argc,char**argv){
  int d=atoi(argv[1]); int n=atoi(argv[2]); int mode=argc>3?atoi(argv[3]):0; // mode 0: nanosleep; 1: spin
  int ls=socket(AF_INET,SOCK_STREAM,0); struct sockaddr_in a={0}; a.sin_family=AF_INET; a.sin_addr.s_addr=htonl(0x7f000001);
  bind(ls,(void*)&a,sizeof a); socklen_t l=sizeof a; getsockname(ls,(void*)&a,&l); listen(ls,1);
  if(fork()==0){ int c=accept(ls,0,0); int one=1; setsockopt(c,IPPROTO_TCP,TCP_NODELAY,&one,4); char b[64];
    while(recv(c,b,53,0)>0){ if(mode==0){struct timespec ts={0,d*1000}; nanosleep(&ts,0);} else {double t=now(); while(now()-t<d);} send(c,b,32,0);} _exit(0);}
  int s=socket(AF_INET,SOCK_STREAM,0); connect(s,(void*)&a,sizeof a); int one=1; setsockopt(s,IPPROTO_TCP,TCP_NODELAY,&one,4);
  char b[64]={0}; double t0=now();
  for(int i=0;i<n;i++){ send(s,b,53,0); recv(s,b,32,0);} double el=now()-t0;
  printf("D=%4d mode=%d cycle=%.1f us overhead=%.1f us\n",d,mode,el/n,el/n-d);
  close(s); wait(0); return 0;}

(function(){
  'use strict';
  var q=document.getElementById('q');
  if(!q){return;}
  var f=document.getElementById('only-findings'),i=document.getElementById('only-images'),rw=document.getElementById('reward');
  var docs=Array.prototype.slice.call(document.querySelectorAll('main section.doc'));
  var rewards=docs.map(function(d){var v=d.getAttribute('data-reward');return v===null?NaN:parseFloat(v);});
  var texts=null;

  // The rows of an index table, kept by the script: sorted and filtered
  // in an array, then put in the table. A table of many rows holds only
  // the rows in view and two spacers (docs/speed.md#view), so sorting or
  // filtering 50,000 rows moves a screenful of them.
  var MANY=2000;
  function Rows(table){
    var self=this;
    this.table=table;this.body=table.tBodies[0];
    this.all=Array.prototype.slice.call(this.body.rows);
    this.order=this.all.slice();this.shown=this.all;this.hidden=null;
    this.box=table.closest('.rows');this.height=0;this.drawn='';
    if(this.box){this.box.addEventListener('scroll',function(){if(self.shown.length>MANY){self.draw();}});}
  }
  Rows.prototype.filter=function(hide){
    this.hidden=hide;
    this.shown=hide?this.order.filter(function(r){return !hide(r);}):this.order;
    this.drawn='';this.draw();
  };
  Rows.prototype.sort=function(key){
    this.order=key(this.all);
    this.filter(this.hidden);
  };
  Rows.prototype.spacer=function(px){var t=document.createElement('tr');t.className='spacer';t.style.height=px+'px';return t;};
  Rows.prototype.draw=function(){
    var n=this.shown.length;
    if(n<=MANY){
      if(this.drawn!=='all'){this.body.replaceChildren.apply(this.body,this.shown);this.drawn='all';}
      return;
    }
    if(!this.height){this.body.replaceChildren(this.shown[0]);this.height=this.shown[0].getBoundingClientRect().height||24;}
    var h=this.height,top=this.box?this.box.scrollTop:0,view=this.box?this.box.clientHeight:600;
    var first=Math.max(0,Math.floor(top/h)-20),last=Math.min(n,Math.ceil((top+view)/h)+20);
    var key=first+':'+last;
    if(this.drawn===key){return;}
    this.drawn=key;
    this.body.replaceChildren.apply(this.body,[this.spacer(first*h)].concat(this.shown.slice(first,last),[this.spacer((n-last)*h)]));
  };
  var tables=Array.prototype.map.call(document.querySelectorAll('table.sortable'),function(t){var r=new Rows(t);r.draw();return r;});
  var lines=tables.filter(function(t){return t.table.classList.contains('lines');})[0];
  var rowOf={};
  if(lines){lines.all.forEach(function(r){var n=r.getAttribute('data-line');rowOf[n===null?'interaction-'+r.getAttribute('data-interaction'):'line-'+n]=r;});}

  // "< 1", "reward >= 0.5", "= 0", "1": a test of a reward, or null when
  // the text says none (empty), or false when it cannot be read.
  function rewardTest(text){
    var m=/^\s*(?:reward\s*)?(<=|>=|!=|==|=|<|>)?\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*$/i.exec(text);
    if(!m){return /^\s*$/.test(text)?null:false;}
    var op=m[1]||'=',x=parseFloat(m[2]);
    return function(v){
      if(isNaN(v)){return false;}
      switch(op){case '<':return v<x;case '<=':return v<=x;case '>':return v>x;case '>=':return v>=x;case '!=':return v!==x;default:return v===x;}
    };
  }

  // The search and the filters hide sections, and leave their rows out.
  function apply(){
    var needle=q.value.toLowerCase();
    if(needle&&!texts){texts=docs.map(function(d){return d.textContent.toLowerCase();});}
    var test=rw?rewardTest(rw.value):null;
    if(rw){rw.classList.toggle('invalid',test===false);}
    var shown=0,out=new Set();
    docs.forEach(function(d,k){
      var ok=(!f.checked||d.getAttribute('data-findings')!=='0')&&(!i.checked||d.getAttribute('data-images')!=='0')&&(!needle||texts[k].indexOf(needle)>=0)&&(!test||test(rewards[k]));
      d.classList.toggle('hidden',!ok);
      if(ok){shown++;}else{var r=rowOf[d.id];if(r){out.add(r);}}
    });
    if(lines){lines.filter(out.size?function(r){return out.has(r);}:null);}
    document.getElementById('shown').textContent=shown.toLocaleString('en');
  }
  q.addEventListener('input',apply);f.addEventListener('change',apply);i.addEventListener('change',apply);
  if(rw){rw.addEventListener('input',apply);}

  // Sorting: a click on a header orders the rows by that column, again
  // the other way. Numbers sort as numbers; a cell with none sorts last.
  tables.forEach(function(rows){
    var heads=rows.table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads,function(th,col){
      var kind=th.getAttribute('data-sort');
      if(!kind){return;}
      th.tabIndex=0;
      function sort(){
        var down=th.getAttribute('aria-sort')==='ascending';
        Array.prototype.forEach.call(heads,function(h){h.removeAttribute('aria-sort');});
        th.setAttribute('aria-sort',down?'descending':'ascending');
        var sign=down?-1:1;
        rows.sort(function(all){
          var keyed=all.map(function(r,k){
            var t=r.cells[col].textContent;
            return {r:r,k:k,v:kind==='num'?parseFloat(t.replace(/,/g,'')):t.toLowerCase()};
          });
          keyed.sort(function(a,b){
            var an=kind==='num'&&isNaN(a.v),bn=kind==='num'&&isNaN(b.v);
            if(an||bn){return an===bn?a.k-b.k:(an?1:-1);}
            return a.v<b.v?-sign:a.v>b.v?sign:a.k-b.k;
          });
          return keyed.map(function(e){return e.r;});
        });
      }
      th.addEventListener('click',sort);
      th.addEventListener('keydown',function(e){if(e.key==='Enter'||e.key===' '){e.preventDefault();sort();}});
    });
  });

  // Compare: "#compare-A-B" shows the rollouts on lines A and B side by
  // side, turn by turn; turns the same in both are dimmed. Built from
  // copies of the two sections' turns (their ids left out); "#" closes it.
  var page=document.querySelector('.page'),main=document.querySelector('main.docs');
  function el(tag,cls,text){var e=document.createElement(tag);if(cls){e.className=cls;}if(text!==undefined){e.textContent=text;}return e;}
  function title(d){var h=d.querySelector('h2');var r=d.getAttribute('data-reward');return (h?h.textContent:d.id)+(r===null?'':' · reward '+r);}
  function turns(d){return Array.prototype.slice.call(d.querySelectorAll(':scope > .turn'));}
  function copy(t){
    var c=t.cloneNode(true);c.removeAttribute('id');
    Array.prototype.forEach.call(c.querySelectorAll('[id]'),function(e){e.removeAttribute('id');});
    Array.prototype.forEach.call(c.querySelectorAll('details.fold[open]'),function(e){e.removeAttribute('open');});
    return c;
  }
  // A turn's text, with a long text drawn once on the page (its first
  // place, or a pointer to it) read as the same: its anchor.
  function sig(t){
    var c=t.cloneNode(true);
    Array.prototype.forEach.call(c.querySelectorAll('.repeated'),function(e){e.replaceWith('@'+e.id);});
    Array.prototype.forEach.call(c.querySelectorAll('.text-ref'),function(e){var a=e.querySelector('a');e.replaceWith('@'+(a?a.getAttribute('href').slice(1):''));});
    return c.textContent;
  }
  function compare(){
    var old=document.getElementById('compare');
    if(old){old.remove();}
    var m=/^#compare-(\d+)-(\d+)$/.exec(location.hash);
    var a=m&&document.getElementById('line-'+m[1]),b=m&&document.getElementById('line-'+m[2]);
    document.body.classList.toggle('comparing',!!(a&&b));
    if(!a||!b){return;}
    var box=el('section','compare-view');box.id='compare';
    var head=el('div','compare-head');
    var task=a.getAttribute('data-task');
    var mates=task?Array.prototype.slice.call(document.querySelectorAll('main section.doc[data-task="'+task+'"]')):[a,b];
    [a,b].forEach(function(d,side){
      var pick=el('select');pick.setAttribute('aria-label',side?'right':'left');
      mates.forEach(function(o){var opt=el('option','',title(o));opt.value=o.getAttribute('data-line');opt.selected=o===d;pick.appendChild(opt);});
      pick.addEventListener('change',function(){location.hash='#compare-'+(side?m[1]+'-'+pick.value:pick.value+'-'+m[2]);});
      head.appendChild(pick);
    });
    var close=el('a','close','close');close.href='#';head.appendChild(close);
    box.appendChild(head);
    var grid=el('div','compare-grid'),ta=turns(a),tb=turns(b),same=0;
    for(var k=0;k<Math.max(ta.length,tb.length);k++){
      var x=ta[k],y=tb[k],alike=!!(x&&y&&sig(x)===sig(y));
      if(alike){same++;}
      [x,y].forEach(function(t){var cell=el('div','cell'+(alike?' same':''));if(t){cell.appendChild(copy(t));}else{cell.appendChild(el('p','note','no turn '+(k+1)));}grid.appendChild(cell);});
    }
    box.appendChild(el('p','note',ta.length+' and '+tb.length+' turns; '+same+' the same in both (dimmed)'));
    box.appendChild(grid);
    page.insertBefore(box,main);
    box.scrollIntoView();
  }
  window.addEventListener('hashchange',compare);
  compare();
})();

(function(){
  'use strict';
  var q=document.getElementById('q');
  if(!q){return;}
  var f=document.getElementById('only-findings'),i=document.getElementById('only-images'),rw=document.getElementById('reward');
  var docs=Array.prototype.slice.call(document.querySelectorAll('main section.doc'));
  var rows={};
  Array.prototype.forEach.call(document.querySelectorAll('tr[data-line],tr[data-interaction]'),function(r){
    var n=r.getAttribute('data-line');
    rows[n===null?'interaction-'+r.getAttribute('data-interaction'):'line-'+n]=r;
  });
  var rewards=docs.map(function(d){var v=d.getAttribute('data-reward');return v===null?NaN:parseFloat(v);});
  var texts=null;

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

  function apply(){
    var needle=q.value.toLowerCase();
    if(needle&&!texts){texts=docs.map(function(d){return d.textContent.toLowerCase();});}
    var test=rw?rewardTest(rw.value):null;
    if(rw){rw.classList.toggle('invalid',test===false);}
    var shown=0;
    docs.forEach(function(d,k){
      var ok=(!f.checked||d.getAttribute('data-findings')!=='0')&&(!i.checked||d.getAttribute('data-images')!=='0')&&(!needle||texts[k].indexOf(needle)>=0)&&(!test||test(rewards[k]));
      d.classList.toggle('hidden',!ok);
      var r=rows[d.id];if(r){r.classList.toggle('hidden',!ok);}
      if(ok){shown++;}
    });
    document.getElementById('shown').textContent=shown.toLocaleString('en');
  }
  q.addEventListener('input',apply);f.addEventListener('change',apply);i.addEventListener('change',apply);
  if(rw){rw.addEventListener('input',apply);}

  // Sorting: a click on a header orders the rows by that column, again
  // the other way. Numbers sort as numbers; a cell with none sorts last.
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'),function(table){
    var heads=table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads,function(th,col){
      var kind=th.getAttribute('data-sort');
      if(!kind){return;}
      th.tabIndex=0;
      function sort(){
        var down=th.getAttribute('aria-sort')==='ascending';
        Array.prototype.forEach.call(heads,function(h){h.removeAttribute('aria-sort');});
        th.setAttribute('aria-sort',down?'descending':'ascending');
        var body=table.tBodies[0],keyed=[];
        for(var k=0;k<body.rows.length;k++){
          var t=body.rows[k].cells[col].textContent;
          keyed.push({r:body.rows[k],k:k,v:kind==='num'?parseFloat(t.replace(/,/g,'')):t.toLowerCase()});
        }
        var sign=down?-1:1;
        keyed.sort(function(a,b){
          var an=kind==='num'&&isNaN(a.v),bn=kind==='num'&&isNaN(b.v);
          if(an||bn){return an===bn?a.k-b.k:(an?1:-1);}
          return a.v<b.v?-sign:a.v>b.v?sign:a.k-b.k;
        });
        var frag=document.createDocumentFragment();
        keyed.forEach(function(e){frag.appendChild(e.r);});
        body.appendChild(frag);
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
  function copy(t){var c=t.cloneNode(true);c.removeAttribute('id');Array.prototype.forEach.call(c.querySelectorAll('[id]'),function(e){e.removeAttribute('id');});return c;}
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
      var x=ta[k],y=tb[k],alike=!!(x&&y&&x.textContent===y.textContent);
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
